//! No crate depends upward (ARCHITECTURE.md, "Invariants"): each crate of
//! the workspace has a layer, and its dependencies (normal, dev and build)
//! are crates of lower layers only. A new crate must be given a layer here.

use std::collections::BTreeMap;
use std::path::Path;

/// The layers, lowest first: the engine, then variants, order text, the
/// kernel and what stands beside it, the adapters, the edges, the binary.
const LAYERS: &[(&str, u32)] = &[
    ("dip-core", 0),
    ("dip-war", 0),
    ("dip-rating", 0),
    ("dip-variants", 1),
    ("dip-text", 2),
    ("dip-play", 3),
    ("dip-render", 3),
    ("dip-cases", 4),
    ("dip-game", 4),
    ("dip-server", 5),
    ("dip-py", 5),
    ("dip-fuzz", 6),
    ("dip", 6),
];

/// The workspace crates a manifest depends on, by section.
fn internal_dependencies(manifest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).to_string();
            continue;
        }
        if !section.ends_with("dependencies") {
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        if name == "dip" || name.starts_with("dip-") {
            out.push((section.clone(), name.to_string()));
        }
    }
    out
}

#[test]
fn no_crate_depends_upward() {
    let layers: BTreeMap<&str, u32> = LAYERS.iter().copied().collect();
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = 0;
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let name = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = \""))
            .map(|n| n.trim_end_matches('"').to_string())
            .unwrap();
        let Some(&layer) = layers.get(name.as_str()) else {
            problems.push(format!("{name}: no layer (add it to LAYERS)"));
            continue;
        };
        seen += 1;
        for (section, dep) in internal_dependencies(&text) {
            match layers.get(dep.as_str()) {
                Some(&l) if l < layer => {}
                Some(&l) => problems.push(format!(
                    "{name} (layer {layer}) [{section}] depends on {dep} (layer {l})"
                )),
                None => problems.push(format!("{name} [{section}] depends on {dep}, which has no layer")),
            }
        }
    }
    assert!(seen >= 12, "only {seen} crates found under {}", crates.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_upward_dependency_is_seen() {
    let manifest =
        "[package]\nname = \"dip-core\"\n[dev-dependencies]\ndip-text.workspace = true\nproptest.workspace = true\n";
    assert_eq!(
        internal_dependencies(manifest),
        vec![("dev-dependencies".to_string(), "dip-text".to_string())]
    );
}
