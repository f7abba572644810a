//! One pipeline for a phase (ARCHITECTURE.md, "Invariants"): only dip-play
//! plays a phase with dip-core's `game::adjudicate` and `game::advance`
//! (its `settle`, which `Game::process` and every adapter go through).
//! dip-core defines them; `dip bench` (crates/dip/src/bench.rs) and
//! dip-fuzz measure and fuzz the core itself. Every other crate's `src/`
//! is read as Rust, comments aside, for a path or an import naming them
//! (`game::adjudicate`, `dip_core::advance`, `use dip_core::game::{…}`,
//! a glob of either module). Tests may drive the core directly.

mod tree;

use std::path::Path;
use tree::sources;

/// Where naming the core's phase functions is the point.
const ALLOWED_CRATES: &[&str] = &["dip-core", "dip-play", "dip-fuzz"];
const ALLOWED_FILES: &[&str] = &["dip/src/bench.rs"];

/// The phase functions of `dip_core::game` (re-exported at the root).
const PIPELINE: &[&str] = &["adjudicate", "adjudicate_with_paths", "advance", "*"];

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The code of a file without its comments and spaces: `use dip_core::{
/// game::{adjudicate, …} }` over several lines becomes one run of text.
fn compact(text: &str) -> String {
    let mut out = String::new();
    // Words stay apart (`use a` is not `usea`); other spaces go.
    let mut space = false;
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for c in code.chars() {
            if c.is_whitespace() {
                space = true;
                continue;
            }
            if space && ident_char(c) && out.chars().last().is_some_and(ident_char) {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
        space = true;
    }
    out
}

/// The names a path after `module::` reaches: one name, or every name of
/// a `{…}` group (nested groups too).
fn reached(rest: &str) -> Vec<String> {
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 1;
        let end = group
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(group.len(), |(i, _)| i);
        return group[..end]
            .split(|c: char| !ident_char(c) && c != '*')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
    }
    let name: String = rest.chars().take_while(|&c| ident_char(c) || c == '*').collect();
    vec![name]
}

/// Each place in `code` where `game::` or `dip_core::` reaches a phase
/// function, as the text there.
fn names_the_pipeline(text: &str) -> Vec<String> {
    let code = compact(text);
    let mut found = Vec::new();
    for module in ["game::", "dip_core::"] {
        for (at, _) in code.match_indices(module) {
            // `dip_game::`, `my_game::` are other modules.
            if code[..at].chars().last().is_some_and(ident_char) {
                continue;
            }
            let rest = &code[at + module.len()..];
            if reached(rest).iter().any(|n| PIPELINE.contains(&n.as_str())) {
                found.push(code[at..].chars().take(60).collect());
            }
        }
    }
    found
}

#[test]
fn only_dip_play_plays_a_phase_with_the_core() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let src = entry.path().join("src");
        if !src.is_dir() || ALLOWED_CRATES.contains(&name.as_str()) {
            continue;
        }
        checked += 1;
        for path in sources(&src) {
            let rel = format!("{name}/{}", path.strip_prefix(entry.path()).unwrap().display());
            if ALLOWED_FILES.contains(&rel.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for hit in names_the_pipeline(&text) {
                problems.push(format!(
                    "{rel}: `{hit}`: play the phase through dip_play::settle or a Game"
                ));
            }
        }
    }
    assert!(checked >= 10, "only {checked} crates found under {}", crates.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_every_way_of_naming_the_core_phase_functions() {
    let seen = |code: &str| !names_the_pipeline(code).is_empty();
    assert!(seen("let o = game::adjudicate(map, &s, &orders, &rules);"));
    assert!(seen("let o = dip_core::game::adjudicate_with_paths(m, s, o, p, r);"));
    assert!(seen("let next = game::advance(map, &s, &o);"));
    assert!(seen("let o = dip_core::adjudicate(map, &s, &[], &r);"));
    assert!(seen("use dip_core::game::{adjudicate, winner};"));
    assert!(seen(
        "use dip_core::{\n    game::{\n        advance,\n    },\n    Order,\n};"
    ));
    assert!(seen("use dip_core::{advance, PhaseOutcome};"));
    assert!(seen("use dip_core::game::*;"));
    // Other modules, comments, and the rest of `game` are not.
    assert!(!seen("let o = dip_game::advance(x);"));
    assert!(!seen("// game::adjudicate(map, &s, &o, &r) is dip-play's"));
    assert!(!seen(
        "let w = game::winner(map, &s); use dip_core::game::PhaseOutcome;"
    ));
    assert!(!seen(
        "use dip_core::{game, Order}; fn f() { movement::apply(m, s, o) }"
    ));
    assert!(!seen("let x = game::advanced_options();"));
}
