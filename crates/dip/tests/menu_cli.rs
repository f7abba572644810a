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

/// A program on a pseudo-terminal, as a person at a terminal runs it:
/// what it shows, and keys typed one at a time.
#[cfg(unix)]
mod pty {
    use std::io::{Read, Write};
    use std::os::fd::FromRawFd;
    use std::process::{Child, Command, Stdio};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    pub struct Term {
        pub child: Child,
        master: std::fs::File,
        screen: Arc<Mutex<Vec<u8>>>,
        /// Reads the terminal until every writer has closed it.
        reader: Option<std::thread::JoinHandle<()>>,
    }

    impl Term {
        pub fn spawn(cmd: &mut Command) -> Term {
            let (mut m, mut s) = (0, 0);
            // SAFETY: openpty fills in two new descriptors or fails.
            let r = unsafe { libc::openpty(&mut m, &mut s, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
            assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
            // SAFETY: both descriptors are new and owned here alone.
            let (master, slave) = unsafe { (std::fs::File::from_raw_fd(m), std::fs::File::from_raw_fd(s)) };
            let child = cmd
                .stdin(Stdio::from(slave.try_clone().unwrap()))
                .stdout(Stdio::from(slave.try_clone().unwrap()))
                .stderr(Stdio::from(slave))
                .spawn()
                .unwrap();
            let screen = Arc::new(Mutex::new(Vec::new()));
            let (mut reader, out) = (master.try_clone().unwrap(), Arc::clone(&screen));
            // Reading ends when the child and all it started have closed
            // the terminal (Linux: EIO once no slave end is open).
            let reader = std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = reader.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    out.lock().unwrap().extend_from_slice(&buf[..n]);
                }
            });
            Term {
                child,
                master,
                screen,
                reader: Some(reader),
            }
        }

        pub fn screen(&self) -> String {
            String::from_utf8_lossy(&self.screen.lock().unwrap()).to_string()
        }

        /// Waits until `text` has been shown `times` times.
        pub fn wait_for(&self, text: &str, times: usize) {
            let start = Instant::now();
            while self.screen().matches(text).count() < times {
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "`{text}` not shown {times} times: {}",
                    self.screen()
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }

        pub fn type_keys(&mut self, keys: &str) {
            self.master.write_all(keys.as_bytes()).unwrap();
            self.master.flush().unwrap();
        }

        /// The exit status, waiting at most 20 s, once all the child wrote
        /// is on the screen: the screen was read the moment the child
        /// exited, before the reader had its last lines, and a test that
        /// counted them failed now and then.
        pub fn wait_exit(&mut self) -> std::process::ExitStatus {
            let start = Instant::now();
            loop {
                if let Some(s) = self.child.try_wait().unwrap() {
                    while self.reader.as_ref().is_some_and(|r| !r.is_finished()) {
                        assert!(
                            start.elapsed() < Duration::from_secs(20),
                            "the terminal is still open: {}",
                            self.screen()
                        );
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    return s;
                }
                if start.elapsed() > Duration::from_secs(20) {
                    let _ = self.child.kill();
                    panic!("still running: {}", self.screen());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// On a terminal one key acts at once, without Enter (raw mode), as in
/// DipWork; this was only tested through a pipe, where a line is read.
#[cfg(unix)]
#[test]
fn a_menu_key_without_enter_was_never_tried_on_a_terminal() {
    let dst = project("pty");
    let mut t = pty::Term::spawn(
        Command::new(env!("CARGO_BIN_EXE_dip"))
            .args(["menu", "--project"])
            .arg(dst.join("PROJECT.TXT")),
    );
    t.wait_for("game (number", 1);
    t.type_keys("1\n");
    t.wait_for("key (q or Esc back): ", 1);
    // One key, no Enter: the scanner runs.
    t.type_keys("s");
    t.wait_for("SCANNED.TXT", 1);
    t.wait_for("press a key", 1);
    t.type_keys("x");
    t.wait_for("key (q or Esc back): ", 2);
    t.type_keys("q");
    t.wait_for("game (number", 2);
    t.type_keys("q\n");
    assert!(t.wait_exit().success(), "{}", t.screen());
    assert!(dst.join("meine/SCANNED.TXT").is_file());
    let _ = std::fs::remove_dir_all(dst);
}

/// SLOWMOTION as the manual has it, on a terminal: -1 waits for a key
/// after each screen line, 0 never waits, N pauses N ms a line; through a
/// pipe nothing waits. Untested before.
#[cfg(unix)]
#[test]
fn slowmotion_was_never_tested() {
    let with = |name: &str, value: &str| {
        let dst = project(name);
        let g = std::fs::read_to_string(dst.join("meine/GAME.TXT")).unwrap();
        std::fs::write(dst.join("meine/GAME.TXT"), format!("SLOWMOTION {value}\n{g}")).unwrap();
        dst
    };
    let run = |dst: &std::path::Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_dip"));
        c.arg("run").arg(dst.join("meine")).args(["--scan", "--parse"]);
        c
    };
    // -1: a key after each of the three lines (SCANNED, ERRORS, PARSED).
    let dst = with("slow-key", "-1");
    let mut t = pty::Term::spawn(&mut run(&dst));
    for n in 1..=3 {
        t.wait_for("wrote ", n);
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(t.child.try_wait().unwrap().is_none(), "it waits for a key");
        assert_eq!(t.screen().matches("wrote ").count(), n, "{}", t.screen());
        t.type_keys("x");
    }
    assert!(t.wait_exit().success(), "{}", t.screen());
    let _ = std::fs::remove_dir_all(dst);
    // 0: no key, no pause.
    let dst = with("slow-zero", "0");
    let mut t = pty::Term::spawn(&mut run(&dst));
    assert!(t.wait_exit().success(), "{}", t.screen());
    assert_eq!(t.screen().matches("wrote ").count(), 3, "{}", t.screen());
    let _ = std::fs::remove_dir_all(dst);
    // 300: at least 300 ms after each line.
    let dst = with("slow-ms", "300");
    let start = std::time::Instant::now();
    let mut t = pty::Term::spawn(&mut run(&dst));
    assert!(t.wait_exit().success(), "{}", t.screen());
    assert!(
        start.elapsed() >= std::time::Duration::from_millis(850),
        "{:?}",
        start.elapsed()
    );
    let _ = std::fs::remove_dir_all(dst);
    // Through a pipe -1 waits for nothing (a script runs it).
    let dst = with("slow-pipe", "-1");
    let out = run(&dst).stdin(Stdio::null()).output().unwrap();
    assert!(out.status.success());
    let _ = std::fs::remove_dir_all(dst);
}

/// The manual: "one leaves this part (and the whole program) by typing
/// `exit`"; it was looked up as a province, and DipWork's coast name `PeS`
/// was unknown.
#[test]
fn fieldtest_took_exit_for_a_province_and_did_not_know_pes() {
    let dst = project("fieldtest-exit");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .arg("run")
        .arg(dst.join("meine"))
        .arg("/fieldtest")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(b"PeS\nexit\nvie\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("St Petersburg") && text.contains("coast      sc"),
        "{text}"
    );
    assert!(!text.contains("no province `exit`"), "{text}");
    assert!(!text.contains("Vienna"), "nothing is read after exit: {text}");
    let _ = std::fs::remove_dir_all(dst);
}

/// The manual's PROJECT.TXT writes `FNGAME game.txt`; on a case-sensitive
/// disk with GAME.TXT the menu could not open the game.
#[test]
fn the_menu_did_not_find_game_txt_named_in_lower_case() {
    let dst = project("fngame");
    let p = std::fs::read_to_string(dst.join("PROJECT.TXT")).unwrap();
    std::fs::write(
        dst.join("PROJECT.TXT"),
        format!("FNGAME game.txt\nFNORDERS orders.txt\n{p}"),
    )
    .unwrap();
    let text = menu(&dst, b"1\ns\n\nq\nq\n");
    assert!(!text.contains("cannot read"), "{text}");
    assert!(dst.join("meine/SCANNED.TXT").is_file(), "{text}");
    let _ = std::fs::remove_dir_all(dst);
}
