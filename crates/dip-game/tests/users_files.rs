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
        let r = run(&dir, &Stages::all(), None).unwrap();
        let orders = newgame_orders(&dir);
        assert!(orders.contains("Russia: A Gal-War"), "{line}: {orders}");
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
    let r = run(&dir, &Stages::all(), None).unwrap();
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
    let r = run(&dir, &Stages::all(), None).unwrap();
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
        let r = run(&dir, &Stages::all(), None).unwrap();
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
        run(&dir, &Stages::all(), None).unwrap();
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
        dip_game::gamedir::accept(&dir).unwrap();
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
