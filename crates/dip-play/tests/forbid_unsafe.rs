//! Every crate that writes no `unsafe` says so with `#![forbid(unsafe_code)]`
//! in each of its roots (ARCHITECTURE.md, "Invariants"), so that an
//! `unsafe` block added later is a compile error until someone decides the
//! crate needs one. dip (the terminal's raw mode, SIGPIPE, malloc) and
//! dip-py (pyo3's object addresses) write `unsafe`, so they are left out
//! by the check itself, not by a list.

use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, in a stable order.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Whether a source line uses the `unsafe` keyword (a block, fn, impl or
/// trait), comments and the forbid attribute itself aside.
fn writes_unsafe(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    ["unsafe {", "unsafe fn", "unsafe impl", "unsafe trait", "unsafe extern"]
        .iter()
        .any(|k| code.contains(k))
}

/// The roots of a crate's targets: the library, the binary, `src/bin/*`.
fn roots(src: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .filter(|p| p.exists())
        .collect();
    if let Ok(entries) = std::fs::read_dir(src.join("bin")) {
        out.extend(
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs")),
        );
    }
    out.sort();
    out
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
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let files: Vec<(PathBuf, String)> = sources(&src)
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p, text)
            })
            .collect();
        let name = entry.file_name().to_string_lossy().into_owned();
        problems.extend(problems_of(&name, &files, &roots(&src)));
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} crates found under {}", crates.display());
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
