//! Variants come from a `Variants` value passed in, never from a static of
//! the process (ARCHITECTURE.md, "Invariants"): no crate's source keeps a
//! variant, a loaded variant or a list of paths to look variants up in a
//! `static`. dip-py is the exception: `dip.add_variant_path` and its
//! maps are the Python module's state, which is the process's; dip-fuzz
//! is a test harness.

mod tree;

use std::path::Path;
use tree::sources;

/// Crates whose statics are theirs to keep (see above).
const EXEMPT: &[&str] = &["dip-py", "dip-fuzz"];

/// Statics that hold a variant for one crate's unit tests only.
const TEST_ONLY: &[(&str, &str)] = &[("dip-server/src/variants.rs", "STANDARD")];

/// Words in a static's type that mean it holds variants or where they are found.
const VARIANT_TYPES: &[&str] = &["Variant", "Loaded", "PathBuf", "Path>"];

/// `static NAME: TYPE` on a line: the name and the type as written.
fn static_item(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let t = t
        .strip_prefix("pub(crate) ")
        .or_else(|| t.strip_prefix("pub "))
        .unwrap_or(t);
    let rest = t.strip_prefix("static ")?;
    let rest = rest.strip_prefix("mut ").unwrap_or(rest);
    let (name, ty) = rest.split_once(':')?;
    Some((name.trim(), ty.split('=').next().unwrap_or(ty).trim()))
}

/// Every static holding variants or search paths, as `crate/src/file: NAME: TYPE`.
fn variant_statics(crates: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(rd) = std::fs::read_dir(crates) else {
        return found;
    };
    for krate in rd.flatten() {
        let name = krate.file_name().to_string_lossy().to_string();
        if EXEMPT.contains(&name.as_str()) {
            continue;
        }
        for f in sources(&krate.path().join("src")) {
            let text = std::fs::read_to_string(&f).unwrap();
            let rel = f.strip_prefix(crates).unwrap().to_string_lossy().replace('\\', "/");
            for line in text.lines() {
                let Some((item, ty)) = static_item(line) else { continue };
                if TEST_ONLY.contains(&(rel.as_str(), item)) {
                    continue;
                }
                if VARIANT_TYPES.iter().any(|w| ty.contains(w)) {
                    found.push(format!("{rel}: {item}: {ty}"));
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_crate_keeps_variants_or_their_search_paths_in_a_static() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let found = variant_statics(&crates);
    assert!(found.is_empty(), "process-wide variant statics:\n{}", found.join("\n"));
}

#[test]
fn the_scan_finds_a_search_list_like_the_one_jdip_had() {
    let dir = std::env::temp_dir().join(format!("dip-statics-{}", std::process::id()));
    let src = dir.join("dip-variants/src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("jdip.rs"),
        "use std::sync::RwLock;\nstatic SEARCH: RwLock<Vec<PathBuf>> = RwLock::new(Vec::new());\n\
         pub(crate) static CACHE: Mutex<HashMap<String, Arc<Loaded>>> = todo!();\n\
         static COUNT: AtomicUsize = AtomicUsize::new(0);\n",
    )
    .unwrap();
    let found = variant_statics(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("CACHE") && found[1].contains("SEARCH"), "{found:?}");
}
