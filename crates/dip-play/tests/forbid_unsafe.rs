//! Every crate that writes no `unsafe` says so with `#![forbid(unsafe_code)]`
//! in each of its roots (ARCHITECTURE.md, "Invariants"), so that an
//! `unsafe` block added later is a compile error until someone decides the
//! crate needs one. dip (the terminal's raw mode, SIGPIPE, malloc) and
//! dip-py (pyo3's object addresses) write `unsafe`, so they are left out
//! by the check itself, not by a list. The roots are every library,
//! binary and example, and the cargo-fuzz targets.

mod tree;

use std::path::{Path, PathBuf};
use tree::sources;

/// Whether a source line uses the `unsafe` keyword (a block, fn, impl or
/// trait), comments and the forbid attribute itself aside.
fn writes_unsafe(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    ["unsafe {", "unsafe fn", "unsafe impl", "unsafe trait", "unsafe extern"]
        .iter()
        .any(|k| code.contains(k))
}

/// The `.rs` files directly in `dir`, in a stable order.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    out.sort();
    out
}

/// The roots of a crate's targets: the library, the binary, `src/bin/*`,
/// and each example (a crate of its own, which may share modules with
/// the other examples).
fn roots(krate: &Path) -> Vec<PathBuf> {
    let src = krate.join("src");
    let mut out: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .filter(|p| p.exists())
        .collect();
    out.extend(files_in(&src.join("bin")));
    out.extend(files_in(&krate.join("examples")));
    out.sort();
    out
}

/// Every source of a crate's roots, read.
fn read_all(dirs: &[PathBuf]) -> Vec<(PathBuf, String)> {
    dirs.iter()
        .flat_map(|d| sources(d))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// What is wrong with one crate: roots without the attribute, when no
/// source of it writes `unsafe`.
fn problems_of(name: &str, files: &[(PathBuf, String)], roots: &[PathBuf]) -> Vec<String> {
    if files.iter().any(|(_, text)| text.lines().any(writes_unsafe)) {
        return Vec::new();
    }
    roots
        .iter()
        .filter(|root| {
            let text = files
                .iter()
                .find(|(p, _)| p == *root)
                .map(|(_, t)| t.as_str())
                .unwrap_or("");
            !text.lines().any(|l| l.trim() == "#![forbid(unsafe_code)]")
        })
        .map(|root| {
            format!(
                "{name}: {} writes no unsafe but lacks #![forbid(unsafe_code)]",
                root.display()
            )
        })
        .collect()
}

#[test]
fn every_crate_without_unsafe_forbids_it() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap().flatten() {
        let krate = entry.path();
        if !krate.join("src").is_dir() {
            continue;
        }
        let files = read_all(&[krate.join("src"), krate.join("examples")]);
        let name = entry.file_name().to_string_lossy().into_owned();
        problems.extend(problems_of(&name, &files, &roots(&krate)));
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} crates found under {}", crates.display());
    // The cargo-fuzz targets (outside the workspace): each target a root.
    let targets = crates.join("../fuzz/fuzz_targets");
    let files = read_all(std::slice::from_ref(&targets));
    assert!(
        files.len() >= 20,
        "only {} fuzz targets in {}",
        files.len(),
        targets.display()
    );
    problems.extend(problems_of("fuzz", &files, &files_in(&targets)));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_crate_without_the_attribute_is_seen_and_one_with_unsafe_is_not() {
    let root = PathBuf::from("src/lib.rs");
    let plain = vec![(root.clone(), "pub mod a;\n".to_string())];
    assert_eq!(problems_of("x", &plain, std::slice::from_ref(&root)).len(), 1);
    let forbidden = vec![(root.clone(), "#![forbid(unsafe_code)]\npub mod a;\n".to_string())];
    assert!(problems_of("x", &forbidden, std::slice::from_ref(&root)).is_empty());
    let with_unsafe = vec![
        (root.clone(), "pub mod a;\n".to_string()),
        (PathBuf::from("src/a.rs"), "fn f() { unsafe { g() } }\n".to_string()),
    ];
    assert!(problems_of("x", &with_unsafe, std::slice::from_ref(&root)).is_empty());
    // A comment that mentions `unsafe {` is not unsafe code.
    let commented = vec![(root.clone(), "// no unsafe { here }\n".to_string())];
    assert_eq!(problems_of("x", &commented, std::slice::from_ref(&root)).len(), 1);
}
