//! The switches and stage files of DipWork's manual under `dip run`:
//! NSU_CHECKING_OFF, EXACT_MATCH for orders only, FNERRORS, `--output` with
//! any stage file, stages reading the earlier stage's hand-corrected file,
//! the debug switches, Chaos's one-letter nations, error 103.

use dip_game::gamedir::{new_game, run, Stages};
use std::path::{Path, PathBuf};

/// A copy of the example game's Spring 1902 movement turn with `game`
/// lines appended to GAME.TXT and these orders.
fn turn(name: &str, extra_game: &str, orders: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/03-S1902M");
    let dst = std::env::temp_dir().join(format!("dip-switch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(&dst).unwrap();
    let game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let game = game.replacen("VARNAME", &format!("{extra_game}VARNAME"), 1);
    std::fs::write(dst.join("GAME.TXT"), game).unwrap();
    std::fs::write(dst.join("ORDERS.TXT"), orders).unwrap();
    dst
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"))
}

#[test]
fn nsu_checking_off_places_ordered_units_and_inserts_no_holds() {
    // France has no unit in Burgundy; with the switch the order places one
    // and nobody else's missing orders are inserted.
    let orders = "NATION France\nA Bur-Mun\nEND\n";
    let on = turn("nsu-on", "NSU_CHECKING_OFF ja\n", orders);
    let r = run(&on, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let errors = read(&on, "ERRORS.TXT");
    assert!(!errors.contains("[209]"), "no NSU under the switch: {errors}");
    assert!(!errors.contains("[12]"), "no inserted holds under the switch: {errors}");
    assert!(
        r.messages.iter().any(|m| m.contains("NSU_CHECKING_OFF")),
        "{:?}",
        r.messages
    );
    assert!(read(&on, "PLAIN.TXT").contains("A Bur-Mun"));

    let off = turn("nsu-off", "", orders);
    run(&off, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let errors = read(&off, "ERRORS.TXT");
    assert!(
        errors.contains("[209]"),
        "without the switch it is no such unit: {errors}"
    );
    let _ = std::fs::remove_dir_all(on);
    let _ = std::fs::remove_dir_all(off);
}

#[test]
fn exact_match_applies_to_orders_not_to_game_txt() {
    // GAME.TXT written in lower case, EXACT_MATCH on: the position is read;
    // an order in the wrong case is not.
    let dir = turn(
        "exact",
        "EXACT_MATCH ja\n",
        "NATION Austria\nA Bud-Ser\na tyr-mun\nEND\n",
    );
    let game = read(&dir, "GAME.TXT").replace("A Bud\n", "a bud\n");
    std::fs::write(dir.join("GAME.TXT"), game).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let plain = read(&dir, "PLAIN.TXT");
    assert!(plain.contains("A Bud-Ser"), "{plain}");
    let errors = read(&dir, "ERRORS.TXT");
    assert!(
        errors.contains("a tyr-mun"),
        "the lower-case order is an error: {errors}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn fnerrors_names_the_errors_file() {
    let dir = turn("fnerrors", "FNERRORS FEHLER.TXT\n", "NATION Austria\nA Vie-Bud\nEND\n");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(read(&dir, "FEHLER.TXT").contains("A Vie-Bud"));
    assert!(!dir.join("ERRORS.TXT").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn output_reads_any_stage_file_by_name() {
    let dir = turn("output", "", "NATION Austria\nA Bud-Ser\nEND\n");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    std::fs::remove_file(dir.join("PLAIN.TXT")).unwrap();
    // DipWork's `/op=conflicted.ord`: the stage by its old name.
    let stages = Stages {
        output: Some("conflicted.ord".into()),
        ..Stages::default()
    };
    run(&dir, &stages, None, &dip_play::Variants::new()).unwrap();
    assert!(read(&dir, "PLAIN.TXT").contains("A Bud-Ser"));
    // A copy under a name of the game master's own.
    std::fs::copy(dir.join("WINTERED.TXT"), dir.join("mine.txt")).unwrap();
    let stages = Stages {
        output: Some("mine.txt".into()),
        ..Stages::default()
    };
    run(&dir, &stages, None, &dip_play::Variants::new()).unwrap();
    let stages = Stages {
        output: Some("nonesuch".into()),
        ..Stages::default()
    };
    let e = run(&dir, &stages, None, &dip_play::Variants::new())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("nonesuch") && e.contains("CONFLICTED"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn conflicter_reads_the_hand_corrected_parsed_file() {
    let dir = turn("handedit", "", "NATION Germany\nA Ber-Pru\nEND\n");
    let parse = Stages {
        scan: true,
        parse: true,
        ..Stages::default()
    };
    run(&dir, &parse, None, &dip_play::Variants::new()).unwrap();
    let parsed = read(&dir, "PARSED.TXT");
    assert!(parsed.contains("# phase: S1902M"), "{parsed}");
    // The game master corrects the order by hand.
    let corrected = parsed.replace("| Germany: A Ber-Pru |", "| Germany: A Ber-Sil |");
    assert_ne!(corrected, parsed);
    std::fs::write(dir.join("PARSED.TXT"), &corrected).unwrap();
    let rest = Stages {
        conflict: true,
        winter: true,
        output: Some("WINTERED".into()),
        ..Stages::default()
    };
    let r = run(&dir, &rest, None, &dip_play::Variants::new()).unwrap();
    assert!(r.messages.iter().any(|m| m.contains("PARSED.TXT")), "{:?}", r.messages);
    assert!(read(&dir, "PLAIN.TXT").contains("A Ber-Sil"));
    assert_eq!(
        read(&dir, "PARSED.TXT"),
        corrected,
        "the corrected file is not written over"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_stage_file_of_another_phase_or_older_than_the_orders_is_not_read() {
    let dir = turn("stale", "", "NATION Germany\nA Ber-Pru\nEND\n");
    let rest = Stages {
        conflict: true,
        winter: true,
        output: Some("WINTERED".into()),
        ..Stages::default()
    };
    // Left from another turn.
    std::fs::write(
        dir.join("PARSED.TXT"),
        "# dip stage: parsed\n# phase: F1901M\n1 | Accepted | Germany: A Ber-Sil |  | A Ber-Sil\n",
    )
    .unwrap();
    let r = run(&dir, &rest, None, &dip_play::Variants::new()).unwrap();
    assert!(r.messages.iter().any(|m| m.contains("F1901M")), "{:?}", r.messages);
    assert!(read(&dir, "PLAIN.TXT").contains("A Ber-Pru"));
    // This turn's, but the orders were changed after it.
    std::fs::write(
        dir.join("PARSED.TXT"),
        "# dip stage: parsed\n# phase: S1902M\n1 | Accepted | Germany: A Ber-Sil |  | A Ber-Sil\n",
    )
    .unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(dir.join("ORDERS.TXT"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    let r = run(&dir, &rest, None, &dip_play::Variants::new()).unwrap();
    assert!(
        r.messages.iter().any(|m| m.contains("changed after")),
        "{:?}",
        r.messages
    );
    assert!(read(&dir, "PLAIN.TXT").contains("A Ber-Pru"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_broken_hand_edited_stage_file_names_file_and_line() {
    let dir = turn("broken", "", "NATION Germany\nA Ber-Pru\nEND\n");
    std::fs::write(
        dir.join("PARSED.TXT"),
        "# dip stage: parsed\n# phase: S1902M\nGermany: A Ber-Sil\n",
    )
    .unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(dir.join("PARSED.TXT"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    let stages = Stages {
        conflict: true,
        ..Stages::default()
    };
    let e = run(&dir, &stages, None, &dip_play::Variants::new())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("PARSED.TXT:3") && e.contains("five columns"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn debug_switches_show_results_and_parameters() {
    let dir = turn("debug", "", "NATION Germany\nA Ber-Pru\nEND\n");
    let r = run(
        &dir,
        &Stages {
            debug: 2,
            ..Stages::all()
        },
        None,
        &dip_play::Variants::new(),
    )
    .unwrap();
    let all = r.messages.join("\n");
    assert!(all.contains("debug1:   Germany: A Ber-Pru succeeds"), "{all}");
    assert!(all.contains("debug2:   VARIANTPATH = standard"), "{all}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn chaos_nations_by_letter_and_home_province() {
    // DipWork's manual: in Chaos the nations are written with one letter
    // or with their home province.
    let dir = std::env::temp_dir().join(format!("dip-switch-{}-chaos", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    new_game(&dir, "chaos", "Chaos", &dip_play::Variants::new()).unwrap();
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "B: Build A Ank\nC Build F Bel\nBer: Build A Ber\nNATION E\nBuild F Bre\nNATION Bud\nbuild A Bud\nEND\n",
    )
    .unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    // Only the nations that built nothing are named: every order was read.
    let errors = read(&dir, "ERRORS.TXT");
    assert!(
        errors.lines().all(|l| l.starts_with("warning: no orders from")),
        "{errors}"
    );
    assert!(!errors.contains("England") && errors.contains("Vienna"), "{errors}");
    let newgame = read(&dir, "NEWGAME.TXT");
    for unit in ["A Ank", "F Bel", "A Ber", "F Bre", "A Bud"] {
        assert!(newgame.contains(&format!("\n{unit}\n")), "{unit}: {newgame}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn retreat_clash_is_error_103_in_newgame() {
    // The example's Spring 1902 retreats with a second dislodged unit:
    // Russia's A Gal and Austria's A Sil both retreat to Warsaw, and both
    // are disbanded: DipWork's 103 under ERROR_NR_OUTPUT.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/04-S1902R");
    let dir = std::env::temp_dir().join(format!("dip-switch-{}-clash", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let game = game.replacen("VARNAME", "ERROR_NR_OUTPUT ja\nVARNAME", 1).replacen(
        "F Adr\nCENTERS",
        "F Adr\nDISLODGED\nA Sil FROM pru\nCENTERS",
        1,
    );
    std::fs::write(dir.join("GAME.TXT"), game).unwrap();
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "NATION Russia\nA Gal-War\nNATION Austria\nA Sil-War\nEND\n",
    )
    .unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let newgame = read(&dir, "NEWGAME.TXT");
    for order in ["Russia: [A Gal-War] {103}", "Austria: [A Sil-War] {103}"] {
        assert!(newgame.contains(order), "{order}: {newgame}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
