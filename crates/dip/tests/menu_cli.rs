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

/// The sample MENULIST of DipWork's manual, verbatim, in a project that
/// leaves SHELL, SHELLCOPY and the file names to their defaults: each item
/// once, from another working folder. `'EDITOR' 'GAMEPATH'\FNORDERS' '!'`
/// failed ("unclosed macro quote": FNORDERS had no default), `'SHELLCOPY'`
/// kept its `'SHELL'` unexpanded, and `'CURRENTPATH\'GAMEPATH'` was the
/// working folder joined to an absolute game path.
#[cfg(unix)]
#[test]
fn the_manuals_sample_menu_failed_end_to_end() {
    let dst = std::env::temp_dir().join(format!("dip-menu-{}-manual", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(dst.join("meine")).unwrap();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/manual-menu");
    std::fs::copy(data.join("PROJECT.TXT"), dst.join("PROJECT.TXT")).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game/meine");
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(src.join(f), dst.join("meine").join(f)).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(["menu", "--project"])
        .arg(dst.join("PROJECT.TXT"))
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Game 1; Auswertung (then a key), DIR (a key), Befehle editieren,
    // Standorte (a key), the submenu's item, back, back, quit.
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(b"1\nA\n\ni\n\nB\nl\n\nu\ns\nq\nq\nq\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("dip: "), "no macro error: {text}");
    assert!(!text.contains("(the command failed)"), "{text}");
    // Auswertung: EVALGAME is DIP_RUN.EXE, which is `dip run`.
    assert!(text.contains(" run meine /all"), "{text}");
    assert!(dst.join("meine/PLAIN.TXT").is_file(), "{text}");
    // DIR lists the project folder (DipWork's working folder).
    assert!(text.contains("PROJECT.TXT"), "{text}");
    // The editor (here `cat`) got ORDERS.TXT, the default FNORDERS.
    assert!(text.contains("> cat meine/ORDERS.TXT"), "{text}");
    assert!(text.contains("Armee Bud holds"), "{text}");
    // `type` of GAME.TXT.
    assert!(text.contains("VARNAME Standard Diplomacy"), "{text}");
    // The submenu copied GAME.TXT to FNSAVE (GAME.BAK) by the full path.
    let current = std::fs::canonicalize(&dst).unwrap();
    assert!(
        text.contains(&format!("> cp meine/GAME.TXT {}/meine/GAME.BAK", current.display())),
        "{text}"
    );
    assert_eq!(
        std::fs::read(dst.join("meine/GAME.BAK")).unwrap(),
        std::fs::read(dst.join("meine/GAME.TXT")).unwrap()
    );
    let _ = std::fs::remove_dir_all(dst);
}

/// The manual's `EVALGAME DIP_RUN.EXE 'GAMEPATH'` (the game's path in the
/// macro, `'EVALGAME' /s` in the menu) ran `DIP_RUN.EXE 'GAMEPATH' /s`.
#[test]
fn evalgame_holding_gamepath_was_not_expanded() {
    let dst = project("evalgame-nested");
    let g = std::fs::read_to_string(dst.join("meine/GAME.TXT")).unwrap();
    std::fs::write(
        dst.join("meine/GAME.TXT"),
        format!("EVALGAME DIP_RUN.EXE 'GAMEPATH'\nMENULIST\n~scannen\nnur den Scanner\n'EVALGAME' /s '!'\n\n{g}"),
    )
    .unwrap();
    let text = menu(&dst, b"1\ns\nq\nq\n");
    assert!(text.contains(" run meine /s"), "{text}");
    assert!(dst.join("meine/SCANNED.TXT").is_file(), "{text}");
    let _ = std::fs::remove_dir_all(dst);
}
