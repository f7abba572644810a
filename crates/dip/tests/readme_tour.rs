//! Every command the README shows runs on the files the repository ships:
//! each code block's commands (`$ dip …` lines, or every line of a block
//! without `$`) run with `sh` in a scratch folder that holds the
//! repository's examples, variants and cases. Each exits 0, but for the
//! few listed that show findings (exit 1); none fails to run (exit 2) or
//! crashes.

use std::path::Path;
use std::process::Command;

fn commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            match block.take() {
                None => block = Some(Vec::new()),
                Some(lines) => {
                    let dollar = lines.iter().any(|l| l.starts_with("$ "));
                    for l in lines {
                        let cmd = if dollar {
                            match l.strip_prefix("$ ") {
                                Some(c) => c,
                                None => continue,
                            }
                        } else {
                            l
                        };
                        out.push(cmd.trim().to_string());
                    }
                }
            }
            continue;
        }
        if let Some(b) = block.as_mut() {
            b.push(line);
        }
    }
    out.into_iter()
        .filter(|c| !c.is_empty())
        .filter_map(|c| {
            // The binary under test stands for `cargo run … -p dip --`;
            // other cargo and Python commands are the developer's.
            if let Some(rest) = c.strip_prefix("cargo run --release -p dip -- ") {
                return Some(format!("dip {rest}"));
            }
            let first = c.split_whitespace().next().unwrap_or("");
            matches!(first, "dip" | "cp" | "cat").then_some(c)
        })
        .collect()
}

/// A server runs until stopped: tests/serve.rs, tests/web.rs and
/// tests/web_board.rs start the README's.
fn is_server(c: &str) -> bool {
    c.starts_with("dip serve") || c.starts_with("dip daide") || c.starts_with("dip board")
}

/// The README commands that show findings, and so exit 1: every other
/// command exits 0.
const FINDINGS: &[&str] = &[
    // A jDip plugin's variant: notes of what dip does not carry over.
    "dip variant check --variants examples/jdip \"Tiny Isle\"",
    // Orders with mistakes, to show the report.
    "dip orders check --state examples/spring-1901/position.txt examples/orders/orders.txt",
];

#[test]
fn every_readme_command_runs_on_shipped_files() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let cmds: Vec<String> = commands(&readme).into_iter().filter(|c| !is_server(c)).collect();
    assert!(cmds.len() > 20, "{cmds:#?}");
    let work = std::env::temp_dir().join(format!("dip-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(work.join("tmp")).unwrap();
    for d in ["examples", "variants", "cases", "docs"] {
        #[cfg(unix)]
        std::os::unix::fs::symlink(repo.join(d).canonicalize().unwrap(), work.join(d)).unwrap();
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_dip")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut failed = Vec::new();
    for c in &cmds {
        // Scratch copies go to the work folder, not the machine's /tmp.
        let c = c.replace("/tmp/", &format!("{}/tmp/", work.display()));
        let out = Command::new("sh")
            .arg("-c")
            .arg(&c)
            .current_dir(&work)
            .env("PATH", &path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // Exit 1 (findings) only where the README shows findings.
        let findings = FINDINGS.iter().any(|f| c.contains(f));
        let ok = match out.status.code() {
            Some(0) => !findings,
            Some(1) => findings,
            _ => false,
        };
        if !ok || err.contains("panicked") {
            failed.push(format!(
                "`{c}`: {:?} (findings expected: {findings})\n{err}",
                out.status.code()
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Every sample under examples/ (and each foreign-format variant under
/// examples/variants/) is used by a README command, so none goes stale.
#[test]
fn every_example_is_in_a_readme_command() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    // A server's command counts: `dip board examples/board/…` is run by
    // tests/web_board.rs.
    let cmds = commands(&readme).join("\n");
    let mut missing = Vec::new();
    for dir in ["examples", "examples/variants"] {
        for e in std::fs::read_dir(repo.join(dir)).unwrap() {
            let name = format!("{dir}/{}", e.unwrap().file_name().to_string_lossy());
            if name != "examples/variants" && !cmds.contains(&name) {
                missing.push(name);
            }
        }
    }
    assert!(missing.is_empty(), "not in any README command: {missing:?}");
}
