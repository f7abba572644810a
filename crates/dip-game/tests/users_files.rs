//! DipWork users' own files work and nothing they wrote is lost in
//! silence: retreats written as moves, orders of another phase reported,
//! automatic changes on lines of the report, GAME.TXT without PHASE,
//! Latin-1 and DOS files written back in their encoding, press and
//! changed orders shown as the manual shows them.

use dip_game::gamedir::{run, Stages};
use std::path::{Path, PathBuf};

/// A copy of the example game's Spring 1902 retreat turn, with these orders.
fn retreat_turn(name: &str, orders: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/04-S1902R");
    let dst = std::env::temp_dir().join(format!("dip-retreat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(&dst).unwrap();
    std::fs::copy(src.join("GAME.TXT"), dst.join("GAME.TXT")).unwrap();
    std::fs::write(dst.join("ORDERS.TXT"), orders).unwrap();
    dst
}

fn newgame_orders(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("NEWGAME.TXT")).unwrap();
    text.lines()
        .filter(|l| l.starts_with("# "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn retreat_written_as_a_move_is_read_as_a_retreat() {
    for (name, line) in [("move", "A Gal-War"), ("bare", "Gal-War"), ("word", "A Gal R War")] {
        let dir = retreat_turn(name, &format!("NATION Russia\n{line}\nEND\n"));
        let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        let orders = newgame_orders(&dir);
        // `Gal-War` names no unit type (300): carried out, and bracketed.
        let want = if name == "bare" {
            "Russia: [A Gal-War]"
        } else {
            "Russia: A Gal-War"
        };
        assert!(orders.contains(want), "{line}: {orders}");
        assert!(
            !r.messages.iter().any(|m| m.contains("suggested")),
            "{line}: the written retreat is used, not the suggestion: {:?}",
            r.messages
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn an_order_of_another_phase_in_a_retreat_turn_is_reported() {
    let dir = retreat_turn("build", "NATION Russia\nA Gal-War\nNATION Germany\nbuild A Kie\nEND\n");
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let errors = std::fs::read_to_string(dir.join("ERRORS.TXT")).unwrap();
    assert!(
        errors.contains("build A Kie") || r.messages.iter().any(|m| m.contains("build A Kie")),
        "the unused line is reported: {errors}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn civil_disorder_disbands_and_waived_builds_are_lines_of_the_report() {
    // Fall 1904 of the example game: Germany has one unit too many and
    // orders no disband; Russia may build twice and orders one build.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/09-F1904M");
    let dir = std::env::temp_dir().join(format!("dip-automatic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let lines: Vec<String> = r
        .report
        .builds
        .iter()
        .map(|l| format!("{}: {} ({})", l.nation, l.order, l.note))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Germany: A Gal disband (too few disbands")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Russia: waive (build not ordered")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn game_txt_without_phase_is_inferred_from_year_and_reported() {
    // DipWork's GAME.TXT has a free YEAR text and no PHASE line.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/04-S1902R");
    for (year, want) in [
        ("YEAR Spring 1902 Retreat", "Spring 1902 Retreat"),
        ("YEAR Frühjahr 1902", "Spring 1902 Retreat"),
    ] {
        let text = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
        let text: String = text
            .lines()
            .filter(|l| !l.starts_with("PHASE") && !l.starts_with("YEAR"))
            .map(|l| format!("{l}\n"))
            .collect();
        let dir = retreat_turn("nophase", "NATION Russia\nA Gal-War\nEND\n");
        std::fs::write(dir.join("GAME.TXT"), format!("{year}\n{text}")).unwrap();
        let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        assert!(
            r.messages
                .iter()
                .any(|m| m.contains(&format!("no PHASE line: {want} inferred"))),
            "{year}: {:?}",
            r.messages
        );
        assert!(newgame_orders(&dir).contains("Russia: A Gal-War"));
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn latin1_and_dos_game_files_are_read_and_written_back_in_their_encoding() {
    use dip_game::files::{encode, Encoding};
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game/meine");
    for enc in [Encoding::Latin1, Encoding::Dos] {
        let dir = std::env::temp_dir().join(format!("dip-encoding-{}-{enc:?}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let game = std::fs::read_to_string(src.join("GAME.TXT"))
            .unwrap()
            .replace("ZAT siehe Last Page", "ZAT Sonntag\nMASTER Jürgen Größ");
        let orders = std::fs::read_to_string(src.join("ORDERS.TXT"))
            .unwrap()
            .replace("Armee Bud holds", "Armee Bud grüßt den Kaiser");
        std::fs::write(dir.join("GAME.TXT"), encode(&game, enc)).unwrap();
        std::fs::write(dir.join("ORDERS.TXT"), encode(&orders, enc)).unwrap();
        run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        let raw = |f: &str| std::fs::read(dir.join(f)).unwrap();
        let has = |f: &str, text: &str| {
            let needle = encode(text, enc);
            raw(f).windows(needle.len()).any(|w| w == needle)
        };
        assert!(has("PLAIN.TXT", "Jürgen Größ"), "PLAIN.TXT keeps {enc:?}");
        assert!(has("NEWGAME.TXT", "Jürgen Größ"), "NEWGAME.TXT keeps {enc:?}");
        assert!(
            has("ERRORS.TXT", "grüßt den Kaiser"),
            "ERRORS.TXT keeps the press line in {enc:?}"
        );
        dip_game::gamedir::accept(&dir, &dip_play::Variants::new()).unwrap();
        assert!(std::str::from_utf8(&raw("GAME.TXT")).is_err(), "GAME.TXT stays {enc:?}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn press_shows_as_xxx_and_orders_the_parser_changed_are_underlined() {
    // DipWork's manual: "F NTH denkt" is shown as "F NTH xxx?"; every order
    // with an error of 100 or more is underlined (UNDERLINE_ON/OFF, `[ ]`).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905");
    let plain = |t: &str| std::fs::read_to_string(root.join(t).join("PLAIN.TXT")).unwrap();
    assert!(plain("08-S1904M").contains("[F Cly xxx?]"), "{}", plain("08-S1904M"));
    // Two orders for Budapest (a move and a line of press): 113, a hold, underlined.
    assert!(plain("01-S1901M").contains("[A Bud H]"), "{}", plain("01-S1901M"));
}

/// A game directory with this GAME.TXT and ORDERS.TXT.
fn game_dir(name: &str, game: &str, orders: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dip-users-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("GAME.TXT"), game).unwrap();
    std::fs::write(dir.join("ORDERS.TXT"), orders).unwrap();
    dir
}

/// Galicia surrounded: every neighbour occupied, the attack from Bohemia.
const SURROUNDED: &str = "VARIANTPATH standard\nNAME Eingekesselt\nPHASE Spring 1901 Movement\n\
NATION Österreich\nUNITS\nA Bud\nA Vie\nCENTERS\nbud vie tri\n%\n\
NATION Deutschland\nUNITS\nA Boh\nA Sil\nCENTERS\nber mun kie\n%\n\
NATION Rußland\nUNITS\nA Gal\nA War\nA Ukr\nA Rum\nCENTERS\nmos war sev stp\n%\nEND\n";

#[test]
fn a_dislodged_unit_with_no_retreat_and_no_order_disappeared_without_a_line() {
    // The retreat phase of the position above: A Gal dislodged from
    // Bohemia, nowhere to go, and Russia sends nothing.
    let game = SURROUNDED
        .replace("Spring 1901 Movement", "Spring 1901 Retreat")
        .replace("A Boh\nA Sil", "A Gal\nA Sil")
        .replace(
            "A Gal\nA War\nA Ukr\nA Rum\n",
            "A War\nA Ukr\nA Rum\nA Boh\nDISLODGED\nA Gal FROM boh\n",
        );
    let dir = game_dir("nowhere", &game, "NATION Rußland\nEND\n");
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
    let line = r.report.retreats.iter().find(|l| l.order == "A Gal disband");
    assert!(
        line.is_some_and(|l| l.automatic && l.code == Some(104)),
        "{:?}",
        r.report.retreats
    );
    assert!(
        r.messages
            .iter()
            .any(|m| m.contains("A Gal: no retreat received (104)")),
        "{:?}",
        r.messages
    );
    let plain = std::fs::read_to_string(dir.join("PLAIN.TXT")).unwrap();
    assert!(plain.contains("disband*"), "{plain}");
    assert!(newgame_orders(&dir).contains("Russia: A Gal disband*"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_unit_dislodged_with_nowhere_to_go_left_the_board_unreported() {
    let orders = "NATION Deutschland\nA Boh-Gal\nA Sil S A Boh-Gal\nEND\n";
    let dir = game_dir("surrounded", SURROUNDED, orders);
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(
        r.report
            .retreats
            .iter()
            .any(|l| l.order == "A Gal disband" && l.automatic && l.note.contains("no retreat open")),
        "{:?}",
        r.report.retreats
    );
    assert!(newgame_orders(&dir).contains("Russia: A Gal disband*"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_retreat_written_as_a_move_in_a_two_phase_turn_corrupted_the_movement_order() {
    // Spring 1902 of the example game, two-phase: Russia's A Gal supports
    // and, below, retreats as a move in case it is dislodged (it is).
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/03-S1902M");
    let orders = std::fs::read_to_string(src.join("ORDERS.TXT"))
        .unwrap()
        .replace("THREEPHASE ja", "THREEPHASE nein")
        .replace(
            "Army Galicia supports Army Budapest\n",
            "Army Galicia supports Army Budapest\nA Gal-War\n",
        );
    let game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let dir = game_dir("twophase", &game, &orders);
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let errors = std::fs::read_to_string(dir.join("ERRORS.TXT")).unwrap();
    assert!(!errors.contains("[113]") && !errors.contains("[206]"), "{errors}");
    let orders = newgame_orders(&dir);
    assert!(
        orders.contains("Russia: [A Gal S A Bud]"),
        "the support stands: {orders}"
    );
    assert!(
        orders.lines().any(|l| l == "# Russia: A Gal-War"),
        "the retreat is played, as ordered: {orders}"
    );
    assert!(!r.messages.iter().any(|m| m.contains("suggested")), "{:?}", r.messages);
    assert!(r.messages.iter().any(|m| m.contains("A Gal-War read as the retreat")));
    // Not dislodged, two orders stay two orders (113), as DipWork has it.
    let orders = std::fs::read_to_string(src.join("ORDERS.TXT"))
        .unwrap()
        .replace("THREEPHASE ja", "THREEPHASE nein")
        .replace("A(Boh)-Gal", "A(Boh) H")
        .replace(
            "Army Galicia supports Army Budapest\n",
            "Army Galicia supports Army Budapest\nA Gal-War\n",
        );
    let dir2 = game_dir("twophase-held", &game, &orders);
    run(&dir2, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let errors = std::fs::read_to_string(dir2.join("ERRORS.TXT")).unwrap();
    assert!(errors.contains("[113]") && errors.contains("[206]"), "{errors}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

#[test]
fn suggested_retreats_and_no_order_holds_looked_ordered() {
    let dir = retreat_turn("marked", "ERROR_NR_OUTPUT ja\nNATION Russia\nEND\n");
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
    let l = &r.report.retreats[0];
    assert_eq!((l.order.as_str(), l.automatic, l.code), ("A Gal-Sil", true, Some(104)));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert!(read("PLAIN.TXT").contains("-Sil*") && read("PLAIN.TXT").contains("* not ordered"));
    assert!(
        newgame_orders(&dir).contains("Russia: A Gal-Sil* {104}"),
        "{}",
        newgame_orders(&dir)
    );
    assert!(read("REPORT.md").contains("A Gal-Sil*"), "{}", read("REPORT.md"));
    assert!(read("REPORT.html").contains("A Gal-Sil*"));
    assert!(
        read("EXPORT.TXT").contains("RUS A(Gal) retreat Sil* (not ordered {104}"),
        "{}",
        read("EXPORT.TXT")
    );
    assert!(read("REPORT.json").contains("\"automatic\": true"));
    // The stage file keeps the mark for `--output`.
    assert!(read("WINTERED.TXT").contains("| not ordered"));
    // A hold inserted for a missing movement order (12) is marked too.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game/meine");
    let game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let dir2 = game_dir("hold12", &game, "NATION Austria\nA Vie-Gal\nEND\n");
    let r = run(&dir2, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let hold = r.report.orders.iter().find(|l| l.order == "A Bud H").unwrap();
    assert!(hold.automatic && hold.code == Some(12), "{hold:?}");
    assert!(std::fs::read_to_string(dir2.join("PLAIN.TXT"))
        .unwrap()
        .contains("A Bud H*"));
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

#[test]
fn a_deleted_retreat_line_was_reported_as_no_retreat_received() {
    let dir = retreat_turn("unusable", "NATION Rußland\nA Gxl-War\nEND\n");
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(
        r.messages
            .iter()
            .any(|m| m.contains("no usable retreat received (line 2 `A Gxl-War` [306] unusable)")),
        "{:?}",
        r.messages
    );
    assert!(r.report.retreats[0].note.contains("no usable retreat received"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_retreat_to_the_attackers_province_was_refused_for_no_border() {
    let dir = retreat_turn("attacker", "NATION Russia\nA Gal-Boh\nEND\n");
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let errors = std::fs::read_to_string(dir.join("ERRORS.TXT")).unwrap();
    assert!(
        errors.contains("[139] impossible retreat: Bohemia is where the attack came from"),
        "{errors}"
    );
    assert!(!errors.contains("no border"), "{errors}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_manuals_short_year_forms_were_read_as_spring_1901_or_year_2() {
    // DipWork's manual: YEAR is free text, "F01", "H/W1904" and the like.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/03-S1902M");
    let game: String = std::fs::read_to_string(src.join("GAME.TXT"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("PHASE") && !l.starts_with("YEAR"))
        .map(|l| format!("{l}\n"))
        .collect();
    let orders = std::fs::read_to_string(src.join("ORDERS.TXT")).unwrap();
    for (year, want) in [
        (
            "F02",
            "Spring 1902 Movement inferred from YEAR `F02` (the year read as 1902)",
        ),
        (
            "Frühjahr '02",
            "Spring 1902 Movement inferred from YEAR `Frühjahr '02` (the year read as 1902)",
        ),
        ("Spring 02", "Spring 1902 Movement inferred from YEAR `Spring 02`"),
    ] {
        let dir = game_dir("year", &format!("YEAR {year}\n{game}"), &orders);
        let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        assert!(r.messages.iter().any(|m| m.contains(want)), "{year}: {:?}", r.messages);
        assert!(
            r.report.season.starts_with("Spring 1902"),
            "{year}: {}",
            r.report.season
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn variantpath_with_dos_backslashes_failed_on_unix() {
    // DipWork's layout: the project folder holds PROJECT.TXT, the variants
    // (here in DOS capitals) and the games; VARIANTPATH is relative to the
    // project folder, with DOS's `\`.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/dipwork/mini");
    let root = std::env::temp_dir().join(format!("dip-users-{}-variantpath", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let variant = root.join("VARIANTS/MINI");
    std::fs::create_dir_all(&variant).unwrap();
    for f in ["VARIANT.TXT", "FIELDS.TXT", "GAME.TXT"] {
        std::fs::copy(fixture.join(f), variant.join(f)).unwrap();
    }
    std::fs::write(root.join("PROJECT.TXT"), "GAMELIST\nspiel % Größe\n\nEND\n").unwrap();
    let game = std::fs::read_to_string(fixture.join("GAME.TXT")).unwrap().replace(
        "VARIANTPATH variants\\mini",
        "VARIANTPATH variants\\mini\nNAME Größe\nPHASE Spring 1901 Movement",
    );
    assert!(game.contains("VARIANTPATH variants\\mini"), "{game}");
    let spiel = root.join("spiel");
    std::fs::create_dir_all(&spiel).unwrap();
    std::fs::write(spiel.join("GAME.TXT"), &game).unwrap();
    std::fs::write(
        spiel.join("ORDERS.TXT"),
        "NATION Nordland\nF Nrd-WSe\nNATION Suedland\nA Sud-Mit\nEND\n",
    )
    .unwrap();
    let r = run(&spiel, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.report.variant, "Mini", "VARIANTPATH found the variant's VARIANT.TXT");
    assert!(
        r.report.orders.iter().any(|l| l.order == "A Sud-Mit" && !l.failed),
        "{:?}",
        r.report.orders
    );
    let _ = std::fs::remove_dir_all(root);
}

/// A new game of `variant` whose GAME.TXT is then rewritten in `enc`, with
/// DOS line ends when `crlf`, and a player with an umlaut.
fn encoded_game(name: &str, variant: &str, enc: dip_game::files::Encoding, crlf: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dip-users-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dip_game::gamedir::new_game(&dir, variant, "Größe", &dip_play::Variants::new()).unwrap();
    let game = std::fs::read_to_string(dir.join("GAME.TXT"))
        .unwrap()
        .replace("MASTER\n", "MASTER Jürgen Größ\n");
    let game = if crlf { game.replace('\n', "\r\n") } else { game };
    std::fs::write(dir.join("GAME.TXT"), dip_game::files::encode(&game, enc)).unwrap();
    dir
}

#[test]
fn quake_rewrote_a_latin1_game_txt_as_utf8_with_unix_line_ends() {
    use dip_game::files::Encoding;
    let dir = encoded_game("quake", "seismic", Encoding::Latin1, true);
    let edits = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/quake.edits");
    dip_game::gamedir::quake(&dir, &edits, "beben", &dip_play::Variants::new()).unwrap();
    let bytes = std::fs::read(dir.join("GAME.TXT")).unwrap();
    let (text, enc) = dip_game::files::read_text_encoded(&dir.join("GAME.TXT")).unwrap();
    assert_eq!(enc, Encoding::Latin1, "GAME.TXT stays Latin-1");
    assert!(text.contains("MASTER Jürgen Größ\r\n"), "{text}");
    assert!(
        bytes
            .iter()
            .enumerate()
            .all(|(i, &b)| b != b'\n' || (i > 0 && bytes[i - 1] == b'\r')),
        "every line ends in CR LF"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn dos_line_ends_were_written_back_as_lf_and_the_dash_as_a_question_mark() {
    use dip_game::files::Encoding;
    let dir = encoded_game("crlf", "standard", Encoding::Dos, true);
    std::fs::write(dir.join("ORDERS.TXT"), b"NATION Austria\r\nA Vie-Gal\r\nEND\r\n").unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    for f in ["NEWGAME.TXT", "PLAIN.TXT", "ERRORS.TXT"] {
        let bytes = std::fs::read(dir.join(f)).unwrap();
        assert!(
            bytes
                .iter()
                .enumerate()
                .all(|(i, &b)| b != b'\n' || (i > 0 && bytes[i - 1] == b'\r')),
            "{f}: every line ends in CR LF"
        );
    }
    let plain = std::fs::read(dir.join("PLAIN.TXT")).unwrap();
    let head = String::from_utf8_lossy(&plain[..plain.len().min(200)]).to_string();
    assert!(
        head.contains("Spring 1901 Movement - next: Fall 1901 Movement"),
        "{head}"
    );
    assert!(!head.contains('?'), "{head}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn variant_check_and_run_disagreed_on_an_encoded_variant() {
    // A DipWork variant folder written on DOS: nations with umlauts.
    use dip_game::files::{encode, Encoding};
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/dipwork/mini");
    let root = std::env::temp_dir().join(format!("dip-users-{}-encvariant", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let variant = root.join("mini");
    std::fs::create_dir_all(&variant).unwrap();
    for f in ["VARIANT.TXT", "FIELDS.TXT", "GAME.TXT"] {
        let t = std::fs::read_to_string(fixture.join(f))
            .unwrap()
            .replace("Nordland", "Nördland")
            .replace("Suedland", "Südland");
        std::fs::write(variant.join(f), encode(&t, Encoding::Dos)).unwrap();
    }
    let checked = dip_variants::formats::load_any(variant.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let spiel = root.join("spiel");
    std::fs::create_dir_all(&spiel).unwrap();
    let game = std::fs::read_to_string(fixture.join("GAME.TXT")).unwrap().replace(
        "VARIANTPATH variants\\mini",
        "VARIANTPATH mini\nPHASE Spring 1901 Movement",
    );
    std::fs::write(spiel.join("GAME.TXT"), encode(&game, Encoding::Dos)).unwrap();
    std::fs::write(
        spiel.join("ORDERS.TXT"),
        encode(
            "NATION Südland\nA Sud-Mit\nNATION Nördland\nF Nrd-WSe\nEND\n",
            Encoding::Dos,
        ),
    )
    .unwrap();
    let r = run(&spiel, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let g = dip_game::gamedir::GameDir::open(&spiel, None, &dip_play::Variants::new()).unwrap();
    let names = |m: &dip_core::Map| m.power_ids().map(|p| m.power(p).name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&checked.map), names(&g.variant.map), "the same variant both ways");
    assert!(
        r.report.orders.iter().any(|l| l.order == "A Sud-Mit" && !l.failed),
        "{:?}",
        r.report.orders
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn export_txt_was_in_dipworks_short_form_not_dips() {
    // DIP's help writes `ENG F(Edi) S A(Lon) - NTH`, `ENG F(NTH) S GER
    // A(Bel) - Hol`, `RUS A(StP) retreat Mos`, `GER build A(Kie)`.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/09-F1904M");
    let game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let orders = std::fs::read_to_string(src.join("ORDERS.TXT")).unwrap();
    let dir = game_dir("export", &game, &orders);
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let export = std::fs::read_to_string(dir.join("EXPORT.TXT")).unwrap();
    for want in [
        "AUS A(Bud) S RUS F(Sev) - Rum",
        "AUS F(ADR) C ITA A(Ven) - Tun",
        "ITA A(Ven) - Tun via convoy",
        "TUR build F(Smy)",
        "GER A(Gal) disband*",
    ] {
        assert!(export.contains(want), "{want}:\n{export}");
    }
    let dir2 = retreat_turn("export-retreat", "NATION Russia\nA Gal-War\nEND\n");
    run(&dir2, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let export = std::fs::read_to_string(dir2.join("EXPORT.TXT")).unwrap();
    assert!(export.contains("RUS A(Gal) retreat War"), "{export}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

#[test]
fn dip_style_on_a_variant_of_its_own_used_the_standard_names() {
    // Ancient Mediterranean: its own nations (CAR, EGY) and provinces.
    let dir = std::env::temp_dir().join(format!("dip-users-{}-ancmed", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dip_game::gamedir::new_game(&dir, "ancmed", "Mare Nostrum", &dip_play::Variants::new()).unwrap();
    std::fs::write(
        dir.join("ORDERS.TXT"),
        "NATION Carthage\nA Car S A Cir\nA Cir H\nNATION Egypt\nA Mem H\nA Thb S A Mem\nEND\n",
    )
    .unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let export = std::fs::read_to_string(dir.join("EXPORT.TXT")).unwrap();
    for want in ["CAR A(Car) S A(Cir)", "CAR A(Cir) hold", "EGY A(Thb) S A(Mem)"] {
        assert!(export.contains(want), "{want}:\n{export}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A `w × h` 24-bit BMP of one colour (a blank map).
fn blank_bmp(w: u32, h: u32) -> Vec<u8> {
    let row = (w * 3).div_ceil(4) * 4;
    let mut v = b"BM".to_vec();
    v.extend((54 + row * h).to_le_bytes());
    v.extend([0u8; 4]);
    v.extend(54u32.to_le_bytes());
    v.extend(40u32.to_le_bytes());
    v.extend(w.to_le_bytes());
    v.extend(h.to_le_bytes());
    v.extend(1u16.to_le_bytes());
    v.extend(24u16.to_le_bytes());
    v.extend([0u8; 24]);
    for _ in 0..h {
        let mut r: Vec<u8> = [0xF0u8, 0xE0, 0xD0].repeat(w as usize);
        r.resize(row as usize, 0);
        v.extend(r);
    }
    v
}

#[test]
fn the_mapper_ignored_the_blank_map_fnmap_names() {
    // DipWork's mapper draws the units onto the blank map FNMAP names, copied
    // into the game's folder; the blank map stays as it was.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game/meine");
    let game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let orders = std::fs::read_to_string(src.join("ORDERS.TXT")).unwrap();
    let dir = game_dir("fnmap", &format!("FNMAP leer.bmp\n{game}"), &orders);
    let bmp = blank_bmp(64, 48);
    std::fs::write(dir.join("LEER.BMP"), &bmp).unwrap();
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(
        r.messages.iter().any(|m| m.contains("drawn on the blank map")),
        "{:?}",
        r.messages
    );
    let svg = std::fs::read_to_string(dir.join("MAP.svg")).unwrap();
    assert!(svg.contains("<image"), "the blank map is under the units");
    assert!(std::fs::read(dir.join("MAP.png")).unwrap().starts_with(b"\x89PNG"));
    assert_eq!(std::fs::read(dir.join("LEER.BMP")).unwrap(), bmp, "never written over");
    // A blank map that is not there is said so.
    std::fs::remove_file(dir.join("LEER.BMP")).unwrap();
    let e = run(&dir, &Stages::all(), None, &dip_play::Variants::new())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("FNMAP leer.bmp: no such picture"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn fnvariant_was_not_read() {
    // PROJECT.TXT names the variant's parameter file (`FN VARIANT`, here
    // PARAMS.TXT instead of VARIANT.TXT).
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/dipwork/mini");
    let root = std::env::temp_dir().join(format!("dip-users-{}-fnvariant", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let variant = root.join("varianten/mini");
    std::fs::create_dir_all(&variant).unwrap();
    std::fs::copy(fixture.join("VARIANT.TXT"), variant.join("PARAMS.TXT")).unwrap();
    std::fs::copy(fixture.join("FIELDS.TXT"), variant.join("FIELDS.TXT")).unwrap();
    std::fs::write(
        root.join("PROJECT.TXT"),
        "FN VARIANT PARAMS.TXT\nGAMELIST\nspiel\n\nEND\n",
    )
    .unwrap();
    let game = std::fs::read_to_string(fixture.join("GAME.TXT")).unwrap().replace(
        "VARIANTPATH variants\\mini",
        "VARIANTPATH varianten\\mini\nPHASE Spring 1901 Movement",
    );
    let spiel = root.join("spiel");
    std::fs::create_dir_all(&spiel).unwrap();
    std::fs::write(spiel.join("GAME.TXT"), game).unwrap();
    std::fs::write(spiel.join("ORDERS.TXT"), "NATION Suedland\nA Sud-Mit\nEND\n").unwrap();
    let r = run(&spiel, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.report.variant, "Mini", "VARNAME from PARAMS.TXT");
    let _ = std::fs::remove_dir_all(root);
}

/// A retreat whose destination is misspelt was no order of the retreat
/// phase ([403], ignored) and the unit got the suggestion as if it had
/// sent nothing; a disband, a hold or a support of a dislodged unit were
/// ignored the same way (the disband lost: the unit retreated).
#[test]
fn a_retreat_with_a_misspelt_destination_was_403_and_no_retreat_received() {
    for (name, line, code) in [
        ("dash", "A Gal-Xyz", 115),
        ("word", "A Gal R Xyz", 115),
        ("bare", "Gal-Xyz", 115),
        ("hold", "A Gal H", 403),
        ("support", "A Gal S A War", 403),
    ] {
        let dir = retreat_turn(&format!("misspelt-{name}"), &format!("NATION Russia\n{line}\nEND\n"));
        let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
        let want = format!("no usable retreat received (line 2 `{line}` [{code}] unusable)");
        assert!(r.messages.iter().any(|m| m.contains(&want)), "{line}: {:?}", r.messages);
        assert!(
            !r.messages.iter().any(|m| m.contains("[403] not an order of")),
            "{line}: {:?}",
            r.messages
        );
        let errors = std::fs::read_to_string(dir.join("ERRORS.TXT")).unwrap();
        assert!(errors.contains(&format!("[{code}]")), "{line}: {errors}");
        let _ = std::fs::remove_dir_all(dir);
    }
    let dir = retreat_turn("misspelt-disband", "NATION Russia\nA Gal disband\nEND\n");
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    assert!(!r.messages.iter().any(|m| m.contains("suggested")), "{:?}", r.messages);
    assert!(
        newgame_orders(&dir).contains("Russia: A Gal disband"),
        "{}",
        newgame_orders(&dir)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// GAME.TXT as `dip new` writes it (plain ASCII, LF) and the players'
/// orders in DOS code page 850 with CR LF: ERRORS.TXT came out in UTF-8
/// with LF, as if the game master's files were Unix files.
#[test]
fn an_ascii_game_txt_made_errors_txt_utf8_although_orders_txt_was_dos() {
    use dip_game::files::Encoding;
    let dir = std::env::temp_dir().join(format!("dip-users-{}-ascii-game", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dip_game::gamedir::new_game(&dir, "standard", "", &dip_play::Variants::new()).unwrap();
    assert!(std::fs::read(dir.join("GAME.TXT")).unwrap().is_ascii());
    let orders = "NATION Österreich\r\nA Vie-Gal\r\nF Tri grüßt den Papst\r\nEND\r\n";
    std::fs::write(dir.join("ORDERS.TXT"), dip_game::files::encode(orders, Encoding::Dos)).unwrap();
    run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    for f in ["ERRORS.TXT", "PLAIN.TXT", "NEWGAME.TXT"] {
        let bytes = std::fs::read(dir.join(f)).unwrap();
        assert!(
            bytes
                .iter()
                .enumerate()
                .all(|(i, &b)| b != b'\n' || (i > 0 && bytes[i - 1] == b'\r')),
            "{f}: every line ends in CR LF"
        );
    }
    let (errors, enc) = dip_game::files::read_text_encoded(&dir.join("ERRORS.TXT")).unwrap();
    assert_eq!(enc, Encoding::Dos, "{errors}");
    assert!(errors.contains("F Tri grüßt den Papst"), "{errors}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `Tu Con-Bul` (no unit type, DipWork's 300) is carried out with the
/// army standing there, but PLAIN.TXT and NEWGAME.TXT printed it without
/// brackets, although the manual underlines every error of 100 or more.
#[test]
fn a_carried_out_300_order_was_not_bracketed() {
    let dir = std::env::temp_dir().join(format!("dip-users-{}-bracket-300", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dip_game::gamedir::new_game(&dir, "standard", "", &dip_play::Variants::new()).unwrap();
    std::fs::write(dir.join("ORDERS.TXT"), "NATION Turkey\nTu Con-Bul\nF Ank-Bla\nEND\n").unwrap();
    let r = run(&dir, &Stages::all(), None, &dip_play::Variants::new()).unwrap();
    let plain = std::fs::read_to_string(dir.join("PLAIN.TXT")).unwrap();
    assert!(plain.contains("[A Con-Bul]"), "{plain}");
    assert!(plain.contains("F Ank-Bla") && !plain.contains("[F Ank-Bla]"), "{plain}");
    let newgame = std::fs::read_to_string(dir.join("NEWGAME.TXT")).unwrap();
    assert!(newgame.contains("# Turkey: [A Con-Bul]"), "{newgame}");
    // Carried out all the same: the army stands in Bulgaria.
    let line = r.report.orders.iter().find(|l| l.order == "A Con-Bul").unwrap();
    assert!(!line.failed && line.code == Some(300), "{line:?}");
    let _ = std::fs::remove_dir_all(dir);
}
