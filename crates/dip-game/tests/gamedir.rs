//! DipWork's pipeline over real game directories: the reports as snapshots
//! under several PLAIN.TXT parameter sets, accept with backups, two- and
//! three-phase turns, parameter lookup and errors that name file and line.

use dip_game::gamedir::{accept, run, Stages};
use std::path::{Path, PathBuf};

/// A fresh copy of examples/game in a temporary folder.
fn example(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game");
    let dst = std::env::temp_dir().join(format!("dip-gamedir-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    copy(&src, &dst);
    dst.join("meine")
}

fn copy(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap().flatten() {
        let to = dst.join(e.file_name());
        if e.path().is_dir() {
            copy(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// Adds parameter lines at the top of GAME.TXT.
fn with_params(dir: &Path, lines: &str) {
    let g = read(dir, "GAME.TXT");
    std::fs::write(dir.join("GAME.TXT"), format!("{lines}{g}")).unwrap();
}

#[test]
fn spring_turn_files() {
    let dir = example("spring");
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(r.written.iter().any(|p| p.ends_with("PLAIN.TXT")));
    insta::assert_snapshot!("plain_default", read(&dir, "PLAIN.TXT"));
    insta::assert_snapshot!("newgame", read(&dir, "NEWGAME.TXT"));
    insta::assert_snapshot!("errors", read(&dir, "ERRORS.TXT"));
    insta::assert_snapshot!("scanned", read(&dir, "SCANNED.TXT"));
    insta::assert_snapshot!("parsed", read(&dir, "PARSED.TXT"));
    insta::assert_snapshot!("conflicted", read(&dir, "CONFLICTED.TXT"));
    insta::assert_snapshot!("wintered", read(&dir, "WINTERED.TXT"));
    insta::assert_snapshot!("report_md", read(&dir, "REPORT.md"));
    insta::assert_snapshot!("dip_export", read(&dir, "EXPORT.TXT"));
    let html = read(&dir, "REPORT.html");
    assert!(
        html.starts_with("<!doctype html>") && html.contains("<td class=\"failed\">A Vie-Gal</td>"),
        "{html}"
    );
    let json: serde_json::Value = serde_json::from_str(&read(&dir, "REPORT.json")).unwrap();
    assert_eq!(json["orders"].as_array().unwrap().len(), 22);
}

#[test]
fn plain_under_printer_tex_and_judge_parameters() {
    for (name, params) in [
        ("plain_printer80", "TABCOLUMNWIDTH 11\nCOLUMNSEPCODE %\nPLAINOUTWIDTH 80\n"),
        (
            "plain_tex",
            "COLUMNSEPCODE 32 38 32\nTABLINEENDSTR \\\\\nTABBEGINSTR \\begin{tabular}{lllllll}\nTABENDSTR \\end{tabular}\n",
        ),
        ("plain_judge", "UNDERLINE_ON %\nUNDERLINE_OFF 42\nCOLUMNSEPCODE 32 32\n"),
    ] {
        let dir = example(name);
        with_params(&dir, params);
        run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        insta::assert_snapshot!(name, read(&dir, "PLAIN.TXT"));
    }
}

#[test]
fn the_output_stage_reads_a_stage_file() {
    let dir = example("output");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let before = read(&dir, "PLAIN.TXT");
    std::fs::remove_file(dir.join("PLAIN.TXT")).unwrap();
    let only_output = Stages {
        output: Some("WINTERED".into()),
        ..Stages::default()
    };
    run(&dir, &only_output, None, &dip_play::Variants::new()).unwrap();
    assert_eq!(read(&dir, "PLAIN.TXT"), before);
    // A damaged stage file is reported with its line.
    std::fs::write(dir.join("WINTERED.TXT"), "game x\norder nonsense\n").unwrap();
    let e = run(&dir, &only_output, None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("WINTERED.TXT:2"), "{e}");
}

#[test]
fn accept_keeps_a_backup_and_the_game_goes_on() {
    let dir = example("accept");
    let first = read(&dir, "GAME.TXT");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let backup = accept(&dir, &dip_play::Variants::new()).unwrap();
    assert_eq!(backup.file_name().unwrap(), "GAME.BAK");
    assert_eq!(read(&dir, "GAME.BAK"), first);
    assert!(read(&dir, "GAME.TXT").contains("PHASE Fall 1901 Movement"));
    // The next turn: no orders at all (NMR), then accept again.
    std::fs::write(dir.join("ORDERS.TXT"), "END\n").unwrap();
    let nmr = Stages {
        no_orders: true,
        ..Stages::all()
    };
    run(&dir, &nmr, None, &dip_play::Variants::new()).unwrap();
    let backup = accept(&dir, &dip_play::Variants::new()).unwrap();
    assert_eq!(
        backup.file_name().unwrap(),
        "GAME.BAK.1",
        "an existing backup is never overwritten"
    );
    // Both accepted turns are in the game's record.
    let v = dip_variants::standard();
    let rec = dip_game::record::GameRecord::from_text(&v.map, &read(&dir, "HISTORY.REC"), "HISTORY.REC").unwrap();
    assert!(rec.phases.len() >= 2, "{} phases", rec.phases.len());
    assert_eq!(rec.phases[0].state.phase.short(), "S1901M");
    assert_eq!(rec.phases[1].state.phase.short(), "F1901M");
    assert!(!dir.join("TURN.REC").exists());
    assert!(
        read(&dir, "GAME.TXT").contains("PHASE Fall 1901 Adjustment")
            || read(&dir, "GAME.TXT").contains("PHASE Spring 1902 Movement")
    );
}

#[test]
fn accept_refuses_a_broken_newgame() {
    let dir = example("broken");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    std::fs::write(
        dir.join("NEWGAME.TXT"),
        "VARIANTPATH standard\nPHASE Spring 1901 Movement\nNATION Austria\nUNITS\nA Xyz\nEND\n",
    )
    .unwrap();
    let before = read(&dir, "GAME.TXT");
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("NEWGAME.TXT:5"), "{e}");
    assert_eq!(read(&dir, "GAME.TXT"), before, "GAME.TXT untouched");
}

const FALL: &str = "VARIANTPATH standard
NAME Fall
PHASE Fall 1901 Movement
NATION Austria
UNITS
A Ser
A Gal
F Alb
CENTERS
bud vie tri
NATION England
UNITS
CENTERS
NATION France
UNITS
CENTERS
NATION Germany
UNITS
CENTERS
NATION Italy
UNITS
CENTERS
NATION Russia
UNITS
A Rum
A Ukr
F Sev
CENTERS
mos war sev stp
NATION Turkey
UNITS
A Bul
CENTERS
ank con smy
END
";

#[test]
fn two_phase_fall_with_suggested_retreat_and_builds() {
    let dir = example("fall");
    std::fs::write(dir.join("GAME.TXT"), FALL).unwrap();
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "NATION Austria\nA Ser-Rum\nA Gal S A Ser-Rum\nF Alb-Gre\nBuild A Bud\nBuild A Vie\nBuild F Tri\nNATION Russia\nA Rum H\nNATION Turkey\nA Bul H\nEND\n",
    )
    .unwrap();
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    // Rumania falls to Austria; Russia gives no retreat: suggested.
    assert!(
        r.messages.iter().any(|m| m.contains("right-hand rule")),
        "{:?}",
        r.messages
    );
    let newgame = read(&dir, "NEWGAME.TXT");
    assert!(newgame.contains("PHASE Spring 1902 Movement"), "{newgame}");
    insta::assert_snapshot!("fall_plain", read(&dir, "PLAIN.TXT"));
    insta::assert_snapshot!("fall_newgame", newgame);
}

#[test]
fn three_phase_stops_after_the_moves() {
    let dir = example("three");
    std::fs::write(dir.join("GAME.TXT"), format!("THREEPHASE ja\n{FALL}")).unwrap();
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "NATION Austria\nA Ser-Rum\nA Gal S A Ser-Rum\nEND\n",
    )
    .unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let newgame = read(&dir, "NEWGAME.TXT");
    assert!(newgame.contains("PHASE Fall 1901 Retreat"), "{newgame}");
    assert!(newgame.contains("DISLODGED\nA Rum FROM ser"), "{newgame}");
    accept(&dir, &dip_play::Variants::new()).unwrap();
    std::fs::write(dir.join("ORDERS.TXT"), "NATION Russia\nA Rum-Bla\nA Rum-Sev\nEND\n").unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let newgame = read(&dir, "NEWGAME.TXT");
    assert!(newgame.contains("PHASE Fall 1901 Adjustment"), "{newgame}");
}

#[test]
fn parameters_orders_before_game_before_project() {
    let dir = example("params");
    // PROJECT.TXT says MASTER Torsten; GAME.TXT overrides, ORDERS.TXT more so.
    with_params(&dir, "MASTER Game Master\n");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(read(&dir, "PLAIN.TXT").contains("GM: Game Master"));
    let o = read(&dir, "ORDERS.TXT");
    std::fs::write(dir.join("ORDERS.TXT"), format!("MASTER Orders Master\n{o}")).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(read(&dir, "PLAIN.TXT").contains("GM: Orders Master"));
}

#[test]
fn rule_switches_come_from_the_parameters() {
    let dir = example("switch");
    with_params(&dir, "SELF_CUT_OK vielleicht\n");
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("GAME.TXT:1"), "{e}");
}

#[test]
fn bad_game_files_name_the_line() {
    let dir = example("bad");
    std::fs::write(dir.join("GAME.TXT"), "NAME x\nPHASE Spring 1901 Movement\nEND\n").unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("VARIANTPATH"), "{e}");
    std::fs::write(
        dir.join("GAME.TXT"),
        "VARIANTPATH standard\nPHASE Spring 1901 Movement\nNATION Austria\nUNITS\nA Vie\nA Mos Kow\nEND\n",
    )
    .unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("GAME.TXT:6"), "{e}");
}

/// examples/game1905 (made by `cargo run -p dip-game --example
/// make-game1905`): every turn, run again from its GAME.TXT and ORDERS.TXT,
/// gives the same PLAIN.TXT, ERRORS.TXT and NEWGAME.TXT.
#[test]
fn example_game_1901_to_1905_replays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905");
    let mut turns: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "current"))
        .collect();
    turns.sort();
    assert!(turns.len() >= 10, "Spring 1901 to Fall 1905 (with its winter)");
    assert!(
        turns.iter().any(|t| t.to_string_lossy().ends_with('R')),
        "a three-phase turn: a retreat phase of its own"
    );
    for t in turns {
        let dir = std::env::temp_dir().join(format!(
            "dip-game1905-{}-{}",
            std::process::id(),
            t.file_name().unwrap().to_string_lossy()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["GAME.TXT", "ORDERS.TXT"] {
            std::fs::copy(t.join(f), dir.join(f)).unwrap();
        }
        run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        for f in ["PLAIN.TXT", "ERRORS.TXT", "NEWGAME.TXT"] {
            assert_eq!(read(&dir, f), read(&t, f), "{} {f}", t.display());
        }
    }
}

/// A power with 18 centres after the Fall turn has won: the report says so.
#[test]
fn victory_ends_the_game() {
    let dir = example("victory");
    let mut g = String::from("VARIANTPATH standard\nNAME Win\nPHASE Fall 1910 Movement\n");
    let france = "bre mar par spa por bel hol mun kie ber den nwy swe lon lvp edi ven";
    g.push_str(&format!("NATION France\nUNITS\nA Bur\nCENTERS\n{france}\n"));
    for n in ["Austria", "England", "Germany", "Italy", "Russia", "Turkey"] {
        g.push_str(&format!("NATION {n}\nUNITS\nCENTERS\n"));
    }
    g.push_str("END\n");
    std::fs::write(dir.join("GAME.TXT"), g).unwrap();
    std::fs::write(dir.join("ORDERS.TXT"), "NATION France\nA Bur-Ruh\nEND\n").unwrap();
    // Ruhr is no centre: 17 centres, the game goes on.
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(!read(&dir, "PLAIN.TXT").contains("Game over"));
    std::fs::write(dir.join("ORDERS.TXT"), "NATION France\nA Bur-Mun\nEND\n").unwrap();
    let g = read(&dir, "GAME.TXT")
        .replace("mun kie", "kie")
        .replace("ven", "ven rom");
    std::fs::write(dir.join("GAME.TXT"), g).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(
        read(&dir, "PLAIN.TXT").contains("Game over: France wins with 18 centres"),
        "{}",
        read(&dir, "PLAIN.TXT")
    );
}

/// Seismic play: a quake removes a border; the game's history keeps the
/// edit, every later run uses the edited map, and GAME.TXT is backed up.
#[test]
fn a_quake_changes_the_map_between_turns() {
    let dir = example("quake");
    let edits = dir.join("../quake.edits");
    std::fs::write(&edits, "remove-border A par bur\n").unwrap();
    let findings = dip_game::gamedir::quake(&dir, &edits, "alps", &dip_play::Variants::new()).unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    assert!(dir.join("history/S1901M-alps.edits").is_file());
    assert!(dir.join("GAME.BAK").is_file());
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    // The French army can no longer reach Burgundy: its order is deleted.
    let errors = read(&dir, "ERRORS.TXT");
    assert!(errors.contains("A Par-Bur"), "{errors}");
    assert!(!read(&dir, "PLAIN.TXT").contains("A Par-Bur"));
    // A second quake of the same name in the same phase is refused.
    assert!(dip_game::gamedir::quake(&dir, &edits, "alps", &dip_play::Variants::new()).is_err());
    // A bad edit file names its line.
    std::fs::write(&edits, "add-border A par bur\nshake everything\n").unwrap();
    let e = dip_game::gamedir::quake(&dir, &edits, "bad", &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains(":2"), "{e}");
}

/// A game on a DipWork variant folder: parameters in its VARIANT.TXT count
/// after GAME.TXT and before PROJECT.TXT (here MASTER and the PLAIN.TXT
/// column width).
#[test]
fn parameters_from_a_dipwork_variant_folder() {
    let dir = example("dipwork-variant");
    let vdir = dir.join("../vars/standard");
    std::fs::create_dir_all(&vdir).unwrap();
    let v = dip_variants::standard();
    let model = dip_variants::Model::from_variant(&v);
    dip_variants::formats::write(&model, dip_variants::formats::Format::DipWork, &vdir).unwrap();
    let mut vt = read(&vdir, "VARIANT.TXT");
    vt = vt.replacen("END", "MASTER Variant Master\nTABCOLUMNWIDTH 14\nEND", 1);
    std::fs::write(vdir.join("VARIANT.TXT"), vt).unwrap();
    // Named from the project folder, as DipWork's CURRENTPATH does.
    let g = read(&dir, "GAME.TXT").replace("VARIANTPATH standard", "VARIANTPATH vars\\standard");
    std::fs::write(dir.join("GAME.TXT"), g).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let plain = read(&dir, "PLAIN.TXT");
    assert!(plain.contains("GM: Variant Master"), "{plain}");
    assert!(plain.contains("Austria       \t"), "a 14-wide column: {plain}");
}

#[test]
fn run_without_orders_file_refuses_unless_no_orders() {
    let dir = example("no-orders");
    std::fs::remove_file(dir.join("ORDERS.TXT")).unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("ORDERS.TXT does not exist") && e.contains("--no-orders"),
        "{e}"
    );
    assert!(!dir.join("NEWGAME.TXT").exists(), "no turn was played");
    // A directory in its place is no orders file either.
    std::fs::create_dir(dir.join("ORDERS.TXT")).unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("is not a file"), "{e}");
    std::fs::remove_dir(dir.join("ORDERS.TXT")).unwrap();
    // Asked for: the turn is played, with a warning.
    let r = run(
        &dir,
        &Stages {
            no_orders: true,
            ..Stages::all()
        },
        None,
        &dip_play::Variants::new(),
    )
    .unwrap();
    assert!(
        r.warnings.iter().any(|m| m.contains("every unit holds")),
        "{:?}",
        r.warnings
    );
    assert!(dir.join("NEWGAME.TXT").is_file());
}

#[test]
fn empty_or_cut_orders_file_played_a_silent_all_hold_turn() {
    let dir = example("silent-orders");
    // An empty file, and the template `dip new` writes (headers, END).
    for text in ["", "ZAT\nNATION Austria\n\nNATION England\nEND\n"] {
        std::fs::write(dir.join("ORDERS.TXT"), text).unwrap();
        let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
            .unwrap_err()
            .to_string();
        assert!(e.contains("--no-orders") && !dir.join("NEWGAME.TXT").exists(), "{e}");
    }
    // Cut before the last nations: no END.
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "NATION Austria\nA Vie-Gal\nNATION England\nF Lon-Nth\n",
    )
    .unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("ORDERS.TXT:4:") && e.contains("without `END`"), "{e}");
    assert!(!dir.join("NEWGAME.TXT").exists());
    // With END the turn is played, and the nations that sent nothing are
    // named, on the screen and first in ERRORS.TXT.
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "NATION Austria\nA Vie-Gal\nNATION England\nF Lon-Nth\nEND\n",
    )
    .unwrap();
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let w = "no orders from France, Germany, Italy, Russia, Turkey in Spring 1901 Movement: their units hold";
    assert!(r.warnings.iter().any(|m| m.contains(w)), "{:?}", r.warnings);
    assert!(read(&dir, "ERRORS.TXT").starts_with(&format!("warning: {w}")));
}

#[test]
fn run_reads_lower_case_orders_txt() {
    let dir = example("lower-orders");
    std::fs::rename(dir.join("ORDERS.TXT"), dir.join("orders.txt")).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(read(&dir, "ERRORS.TXT").len() > 10, "the orders were read");
}

#[test]
fn game_file_cut_at_nation_boundary_is_refused() {
    let dir = example("cut");
    let game = read(&dir, "GAME.TXT");
    let cut = &game[..game.find("NATION Germany").unwrap()];
    std::fs::write(dir.join("GAME.TXT"), cut).unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("without `END`"), "{e}");
    // And accept refuses such a NEWGAME.TXT, leaving GAME.TXT as it was.
    std::fs::write(dir.join("GAME.TXT"), &game).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let newgame = read(&dir, "NEWGAME.TXT");
    std::fs::write(
        dir.join("NEWGAME.TXT"),
        &newgame[..newgame.find("NATION Germany").unwrap()],
    )
    .unwrap();
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("without `END`"), "{e}");
    assert_eq!(read(&dir, "GAME.TXT"), game);
}

#[test]
fn accept_refuses_newgame_that_run_would_refuse() {
    let dir = example("accept-variantpath");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let newgame = read(&dir, "NEWGAME.TXT").replace("VARIANTPATH standard", "VARIANTPATH no-such-variant");
    std::fs::write(dir.join("NEWGAME.TXT"), newgame).unwrap();
    let before = read(&dir, "GAME.TXT");
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("VARIANTPATH"), "{e}");
    assert_eq!(read(&dir, "GAME.TXT"), before);
    assert!(!dir.join("GAME.BAK").exists(), "no backup for a refused accept");
}

#[test]
fn accept_is_atomic_when_history_is_broken() {
    let dir = example("accept-atomic");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    std::fs::write(dir.join("HISTORY.REC"), "game x\nnonsense here\n").unwrap();
    let before = read(&dir, "GAME.TXT");
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("HISTORY.REC:2"), "{e}");
    assert_eq!(read(&dir, "GAME.TXT"), before, "GAME.TXT untouched");
    assert!(dir.join("TURN.REC").is_file(), "TURN.REC kept");
    // A damaged TURN.REC is refused too, before anything is written.
    std::fs::remove_file(dir.join("HISTORY.REC")).unwrap();
    std::fs::write(dir.join("TURN.REC"), "phase nonsense\n").unwrap();
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("TURN.REC"), "{e}");
    assert_eq!(read(&dir, "GAME.TXT"), before);
    assert!(!dir.join("HISTORY.REC").exists());
    // The same turn accepted twice would repeat its phases: refused.
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    accept(&dir, &dip_play::Variants::new()).unwrap();
    let hist = read(&dir, "HISTORY.REC");
    let game = read(&dir, "GAME.TXT");
    std::fs::write(dir.join("GAME.TXT"), &before).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("time order"), "{e}");
    assert_eq!(read(&dir, "HISTORY.REC"), hist);
    assert_ne!(read(&dir, "GAME.TXT"), game);
}

#[test]
fn new_refuses_existing_orders_txt() {
    let dir = std::env::temp_dir().join(format!("dip-gamedir-{}-new-orders", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ORDERS.TXT"), "my orders\n").unwrap();
    let e = dip_game::gamedir::new_game(&dir, "standard", "x", &dip_play::Variants::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("ORDERS.TXT exists"), "{e}");
    assert_eq!(read(&dir, "ORDERS.TXT"), "my orders\n");
    assert!(!dir.join("GAME.TXT").exists());
}

#[test]
fn accept_twice_without_a_run_makes_another_backup() {
    let dir = example("accept-twice");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    accept(&dir, &dip_play::Variants::new()).unwrap();
    let e = accept(&dir, &dip_play::Variants::new()).unwrap_err().to_string();
    assert!(e.contains("accepted already"), "{e}");
    assert!(!dir.join("GAME.BAK.1").exists());
}

/// `accept` renames HISTORY.REC before GAME.TXT: a failure between the
/// two left a game a second `accept` refused (the turn twice in the
/// record). Now the second `accept` sees the turn at the record's end and
/// finishes the swap.
#[test]
fn accept_stopped_between_its_renames_could_not_be_finished() {
    let dir = example("accept-halfway");
    std::fs::write(dir.join("ORDERS.TXT"), "NATION Russia\nA Mos-Ukr\nEND\n").unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let old_game = read(&dir, "GAME.TXT");
    // As if accept had written its journal, renamed HISTORY.REC into
    // place and then stopped.
    std::fs::copy(dir.join("TURN.REC"), dir.join("HISTORY.REC")).unwrap();
    std::fs::write(dir.join("ACCEPT.JOURNAL"), "").unwrap();
    let history = read(&dir, "HISTORY.REC");
    accept(&dir, &dip_play::Variants::new()).unwrap();
    assert_eq!(read(&dir, "GAME.TXT"), read(&dir, "NEWGAME.TXT"));
    assert_eq!(read(&dir, "GAME.BAK"), old_game);
    assert_eq!(read(&dir, "HISTORY.REC"), history, "the turn is not recorded twice");
    assert!(!dir.join("TURN.REC").exists() && !dir.join("ACCEPT.JOURNAL").exists());
}

#[test]
fn orders_txt_with_last_turns_year_was_played_again() {
    let dir = example("orders-year");
    let o = read(&dir, "ORDERS.TXT").replacen("YEAR Frühjahr 1901\n", "", 1);
    for year in ["Herbst 1901", "Frühjahr 1902", "F02", "S1902M"] {
        std::fs::write(dir.join("ORDERS.TXT"), format!("YEAR {year}\n{o}")).unwrap();
        let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
            .unwrap_err()
            .to_string();
        assert!(e.contains("ORDERS.TXT:1"), "{year}: {e}");
        assert!(e.contains("not the game's turn, Spring 1901 Movement"), "{year}: {e}");
        assert!(!dir.join("PLAIN.TXT").exists(), "{year}");
    }
    // The game's own turn, however written, is played.
    for year in ["Frühjahr 1901", "F01", "Spring 1901 Movement", ""] {
        std::fs::write(dir.join("ORDERS.TXT"), format!("YEAR {year}\n{o}")).unwrap();
        run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{year}: {e}"));
    }
}

#[test]
fn orders_txt_naming_an_output_file_elsewhere_wrote_it_there() {
    let dir = example("fn-outside");
    let victim = dir.parent().unwrap().join("victim.txt");
    std::fs::write(&victim, "mine").unwrap();
    let o = read(&dir, "ORDERS.TXT");
    for key in ["FNERRORS", "FNPLAINOUT", "FNNEWGAME"] {
        for name in [victim.display().to_string(), "../victim.txt".to_string()] {
            std::fs::write(dir.join("ORDERS.TXT"), format!("{key} {name}\n{o}")).unwrap();
            let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
                .unwrap_err()
                .to_string();
            assert!(e.contains("ORDERS.TXT:1: "), "{key} {name}: {e}");
            assert!(e.contains("no absolute path, no `..`"), "{key} {name}: {e}");
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine", "{key} {name}");
        }
    }
    // A name inside the game's folder is written there.
    std::fs::write(dir.join("ORDERS.TXT"), format!("FNERRORS FEHLER.TXT\n{o}")).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(dir.join("FEHLER.TXT").is_file());
}
