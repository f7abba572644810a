//! `dip menu` driven through its standard input, as a person would type.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn menu_runs_a_stage_of_a_listed_game() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game");
    let dst = std::env::temp_dir().join(format!("dip-menu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(dst.join("meine")).unwrap();
    std::fs::copy(src.join("PROJECT.TXT"), dst.join("PROJECT.TXT")).unwrap();
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(src.join("meine").join(f), dst.join("meine").join(f)).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(["menu", "--project"])
        .arg(dst.join("PROJECT.TXT"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Game 1, "s" = scanner only, Enter, back, quit.
    child.stdin.as_mut().unwrap().write_all(b"1\ns\n\nq\nq\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("meine"), "{text}");
    assert!(text.contains("Scanner only"), "{text}");
    assert!(dst.join("meine/SCANNED.TXT").is_file(), "{text}");
}

/// A project copy with the example game.
fn project(name: &str) -> std::path::PathBuf {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game");
    let dst = std::env::temp_dir().join(format!("dip-menu-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(dst.join("meine")).unwrap();
    std::fs::copy(src.join("PROJECT.TXT"), dst.join("PROJECT.TXT")).unwrap();
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(src.join("meine").join(f), dst.join("meine").join(f)).unwrap();
    }
    dst
}

fn menu(dst: &std::path::Path, input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(["menu", "--project"])
        .arg(dst.join("PROJECT.TXT"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn an_upper_case_key_chose_the_lower_case_item() {
    let dst = project("case");
    let text = menu(&dst, b"1\nS\nq\nq\n");
    assert!(text.contains("hotkeys are case-sensitive; did you mean s?"), "{text}");
    assert!(!dst.join("meine/SCANNED.TXT").exists(), "{text}");
    let _ = std::fs::remove_dir_all(dst);
}

#[test]
fn project_txt_could_not_be_edited_from_the_menu() {
    let dst = project("edit");
    // The project's EDITOR: here a command that changes the help text.
    let p = std::fs::read_to_string(dst.join("PROJECT.TXT")).unwrap();
    std::fs::write(dst.join("PROJECT.TXT"), format!("EDITOR sed -i s/Partie:/Spiel:/\n{p}")).unwrap();
    let text = menu(&dst, b"p\nq\n");
    assert!(text.contains("edit "), "{text}");
    let after = std::fs::read_to_string(dst.join("PROJECT.TXT")).unwrap();
    assert!(after.contains("meine % Meine Spiel:"), "{after}");
    assert!(text.contains("Meine Spiel:"), "the list is read again: {text}");
    let _ = std::fs::remove_dir_all(dst);
}

#[test]
fn dip_runs_orderview_fieldtest_mono_and_help_switches_were_refused() {
    let dst = project("switches");
    let game = dst.join("meine");
    let run = |args: &[&str], input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
            .arg("run")
            .arg(&game)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.as_mut().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, text) = run(&["/all", "/mono"], b"");
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&["/orderview"], b"");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("# dip stage: wintered"), "{text}");
    let (code, text) = run(&["/fieldtest"], b"stp\nnirgendwo\n\n");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("St Petersburg") || text.contains("stp"), "{text}");
    assert!(text.contains("no province `nirgendwo`"), "{text}");
    let (code, text) = run(&["/?"], b"");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("Usage"), "{text}");
    let _ = std::fs::remove_dir_all(dst);
}

#[test]
fn the_manuals_menu_macro_evalgame_was_unknown_without_a_project_entry() {
    // DipWork's sample menu: `'EVALGAME' 'GAMEPATH' /s`, EVALGAME unset.
    let dst = project("evalgame");
    let g = std::fs::read_to_string(dst.join("meine/GAME.TXT")).unwrap();
    std::fs::write(
        dst.join("meine/GAME.TXT"),
        format!("MENULIST\n~scannen\nnur den Scanner\n'EVALGAME' 'GAMEPATH' /s '!'\n\n{g}"),
    )
    .unwrap();
    let text = menu(&dst, b"1\ns\nq\nq\n");
    assert!(dst.join("meine/SCANNED.TXT").is_file(), "{text}");
    let _ = std::fs::remove_dir_all(dst);
}
