//! DipWork 2.0.7's users, with files written from its manual's own
//! examples: a project with PROJECT.TXT, a game folder with the manual's
//! GAME.TXT (NATION blocks in NATIONLIST's order, DipWork's names `Lpl`,
//! `PeS`) and ORDERS.TXT (YEAR, ZAT, orders in the scanner's language).
//! Each test is named after what failed.

use dip_game::gamedir::{run, Stages};
use std::path::{Path, PathBuf};

/// The manual's GAME.TXT example, the standard game of 1901 written the
/// way its example is (one centre a line, NATION with DipWork's two-letter
/// abbreviations), without PHASE (DipWork has none) and without YEAR.
const GAME: &str = "VARIANTPATH standard
NAME Meine Partie
MASTER Torsten
NATION Au
UNITS
A Vie
A Bud
F Tri
CENTERS
Vie
Bud
Tri
NATION En
UNITS
A Lpl
F Edi
F Lon
CENTERS
Edi
Lon
Lpl
NATION Fr
UNITS
A Par
A Mar
F Bre
CENTERS
Par
Mar
Bre
NATION Ge
UNITS
A Ber
A Mun
F Kie
CENTERS
Ber
Mun
Kie
NATION It
UNITS
A Rom
A Ven
F Nap
CENTERS
Rom
Ven
Nap
NATION Ru
UNITS
A Mos
A War
F Sev
F PeS
CENTERS
Mos
War
Sev
Pet
NATION Tu
UNITS
A Con
A Smy
F Ank
CENTERS
Con
Smy
Ank
END
";

/// The manual's ORDERS.TXT example (its YEAR `Spring 03` made the game's
/// first spring).
const ORDERS: &str = "YEAR Frühjahr 1901
ZAT normal
NATION Austria
A Vie xxx
Armee Bud holds
f tri
NATION En
A Lpl-Yor
Fleet Lon S A Lpl-Yor

F Edi greets the pope
END
";

/// A project folder with PROJECT.TXT and the game `meine` in it.
fn project(test: &str, project_txt: &str, files: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("dip-manual-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let game = root.join("meine");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(root.join("PROJECT.TXT"), project_txt).unwrap();
    for (name, text) in files {
        std::fs::write(game.join(name), text).unwrap();
    }
    (root, game)
}

fn messages(r: &dip_game::gamedir::RunResult) -> String {
    r.messages.join("\n")
}

#[test]
fn fngame_in_lower_case_was_not_found_on_a_case_sensitive_disk() {
    // The manual's PROJECT.TXT names the files in lower case; the game
    // master's disk has them as DOS wrote them, in capitals.
    let (root, game) = project(
        "fngame",
        "GAMELIST\nmeine % Meine Partie\n\nFNORDERS orders.txt\nFNGAME game.txt\nFNVARIANT variant.txt\nEND\n",
        &[("GAME.TXT", GAME), ("ORDERS.TXT", ORDERS)],
    );
    let r = run(
        &game,
        &Stages::all(),
        Some(&root.join("PROJECT.TXT")),
        &dip_play::Variants::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.report.orders.iter().any(|l| l.order == "A Lvp-Yor"),
        "{:?}",
        r.report.orders
    );
    // dip writes its files under their own names, and finds an existing
    // one in any case: FNPLAINOUT plain.txt replaces PLAIN.TXT.
    std::fs::write(game.join("PLAIN.TXT"), "old").unwrap();
    let mut orders = ORDERS.replace("ZAT normal", "ZAT normal\nFNPLAINOUT plain.txt");
    orders.push('\n');
    std::fs::write(game.join("ORDERS.TXT"), &orders).unwrap();
    run(
        &game,
        &Stages::all(),
        Some(&root.join("PROJECT.TXT")),
        &dip_play::Variants::new(),
    )
    .unwrap();
    assert_ne!(std::fs::read_to_string(game.join("PLAIN.TXT")).unwrap(), "old");
    assert!(
        !game.join("plain.txt").exists()
            || game.join("plain.txt").canonicalize().unwrap() == game.join("PLAIN.TXT").canonicalize().unwrap()
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn year_in_orders_txt_was_ignored_when_game_txt_names_no_turn() {
    // GAME.TXT with neither PHASE nor YEAR; the turn is in ORDERS.TXT,
    // where the manual writes YEAR (and the file its lookup reads first).
    let fall = GAME.replace("A Vie\n", "A Gal\n");
    let orders = "YEAR Herbst 1901\nNATION Austria\nA Gal-War\nEND\n";
    let (root, game) = project("orders-year", "END\n", &[("GAME.TXT", &fall), ("ORDERS.TXT", orders)]);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.report.season.starts_with("Fall 1901"), "{}", r.report.season);
    assert!(
        messages(&r).contains("Fall 1901 Movement inferred from YEAR `Herbst 1901` of"),
        "{}",
        messages(&r)
    );
    // Fall: the winter follows, the new game is Spring 1902.
    let newgame = std::fs::read_to_string(game.join("NEWGAME.TXT")).unwrap();
    assert!(newgame.contains("PHASE Spring 1902 Movement"), "{newgame}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn exact_match_made_dipworks_standard_abbreviations_unknown() {
    // The manual: with EXACT_MATCH ja `A Lon S A Wal xxx` is correct and
    // `a lon s a wal xxx` is not.
    let orders = "YEAR Frühjahr 1901
EXACT_MATCH ja
SPELLCHECK 0
NATION En
F Lon-ENG
F Edi-NTH
A Lpl-Wal
NATION Fr
F Bre-MID
A Par-Bur
A Mar S A Par-Bur
NATION It
A Rom xxx
a ven xxx
F Nap-ION
END
";
    let (root, game) = project("exact", "END\n", &[("GAME.TXT", GAME), ("ORDERS.TXT", orders)]);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let errors = std::fs::read_to_string(game.join("ERRORS.TXT")).unwrap();
    let line = |o: &str| r.report.orders.iter().find(|l| l.order == o).cloned();
    for o in ["F Lon-Eng", "F Bre-Mao", "A Lvp-Wal", "A Rom H"] {
        let l = line(o).unwrap_or_else(|| panic!("{o}: {:?}\n{errors}", r.report.orders));
        assert!(!l.failed && l.code.is_none(), "{o}: {l:?}");
    }
    // `a ven xxx` is not the case the variant writes its unit word in.
    assert!(errors.contains("a ven xxx"), "{errors}");
    assert!(line("A Ven H").is_some_and(|l| l.automatic), "{:?}", r.report.orders);

    // The second turn: `F ENG xxx` is England's order, `F MID-ENG` France's.
    let orders = "YEAR Herbst 1901\nEXACT_MATCH ja\nSPELLCHECK 0\nNATION En\nF ENG xxx\nA Wal S F ENG xxx\nNATION Fr\nF MID-ENG\nEND\n";
    std::fs::copy(game.join("NEWGAME.TXT"), game.join("GAME.TXT")).unwrap();
    std::fs::write(game.join("ORDERS.TXT"), orders).unwrap();
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let errors = std::fs::read_to_string(game.join("ERRORS.TXT")).unwrap();
    assert!(
        !errors.contains("[306]") && !errors.contains("England sent no orders"),
        "{errors}"
    );
    let line = |o: &str| r.report.orders.iter().find(|l| l.order == o).cloned();
    assert!(line("F Eng H").is_some_and(|l| !l.automatic), "{:?}", r.report.orders);
    assert!(line("F Mao-Eng").is_some_and(|l| l.failed), "{:?}", r.report.orders);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_missing_picture_list_refused_the_whole_variant() {
    // A DipWork variant folder whose VARIANT.TXT names the manual's
    // default picture list, which is not there.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/variants/mini");
    let (root, game) = project("piclist", "END\n", &[]);
    let var = root.join("variants/mini");
    std::fs::create_dir_all(&var).unwrap();
    for f in ["FIELDS.TXT", "VARIANT.TXT"] {
        let mut text = std::fs::read_to_string(src.join(f)).unwrap();
        if f == "VARIANT.TXT" {
            text = format!("FNPICLIST piclst64.txt\n{text}");
        }
        std::fs::write(var.join(f), text).unwrap();
    }
    let mini_game = std::fs::read_to_string(src.join("GAME.TXT")).unwrap();
    let mini_game = mini_game.replace("VARIANTPATH", "% VARIANTPATH");
    std::fs::write(
        game.join("GAME.TXT"),
        format!("VARIANTPATH variants\\mini\n{mini_game}"),
    )
    .unwrap();
    std::fs::write(game.join("ORDERS.TXT"), "END\n").unwrap();
    let mut stages = Stages::all();
    stages.no_orders = true;
    let r = run(&game, &stages, None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        messages(&r).contains("FNPICLIST piclst64.txt: no such picture list"),
        "{}",
        messages(&r)
    );
    assert!(game.join("NEWGAME.TXT").is_file());
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_manuals_dos_name_conflced_ord_was_refused_by_op() {
    let (root, game) = project(
        "conflced",
        "END\n",
        &[("GAME.TXT", &format!("THREEPHASE ja\n{GAME}")), ("ORDERS.TXT", ORDERS)],
    );
    let mut stages = Stages::all();
    stages.output = None;
    run(&game, &stages, None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let op = Stages {
        output: Some("CONFLCED.ORD".into()),
        ..Stages::default()
    };
    let r = run(&game, &op, None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.report.orders.iter().any(|l| l.order == "A Lvp-Yor"), "{:?}", r.report);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn aufbau_the_manuals_build_word_was_deleted_as_303() {
    // Fall 1901: Germany took Holland and Denmark and builds in Kiel,
    // which its fleet left; the manual's German words.
    let fall = format!("YEAR Herbst 1901\n{}", GAME.replace("F Kie\n", "F Hol\nA Den\n"));
    let orders = "YEAR Herbst 1901\nNATION Ge\nF Hol xxx\nA Den xxx\nA Ber xxx\nA Mun xxx\nAufbau A Kie\nEND\n";
    let (root, game) = project("aufbau", "END\n", &[("GAME.TXT", &fall), ("ORDERS.TXT", orders)]);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let errors = std::fs::read_to_string(game.join("ERRORS.TXT")).unwrap();
    assert!(!errors.contains("[303]"), "{errors}");
    assert!(
        r.report.builds.iter().any(|l| l.order == "+A Kie" && !l.failed),
        "{:?}\n{errors}",
        r.report.builds
    );
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_nation_named_otherwise_than_the_variant_was_unknown() {
    // "What stands after NATION does not matter at all, since the nations
    // come in the order of the variant's NATIONLIST."
    let renamed = GAME.replacen("NATION Au", "NATION Österreich-Ungarn", 1);
    let (root, game) = project("nation", "END\n", &[("GAME.TXT", &renamed), ("ORDERS.TXT", ORDERS)]);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.report
            .orders
            .iter()
            .any(|l| l.nation == "Austria" && l.order == "A Vie H"),
        "{:?}",
        r.report.orders
    );
    assert!(
        messages(&r).contains("NATION `Österreich-Ungarn` read as Austria"),
        "{}",
        messages(&r)
    );
    // Two blocks of one nation are an error naming both.
    let twice = GAME.replacen("NATION En", "NATION Au", 1);
    std::fs::write(game.join("GAME.TXT"), twice).unwrap();
    let e = run(&game, &Stages::all(), None, &dip_play::Variants::new())
        .expect_err("two blocks of Austria")
        .to_string();
    assert!(e.contains("as NATION `Au` on line"), "{e}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn fieldtest_read_exit_as_a_province_and_did_not_know_pes() {
    let (root, game) = project("fieldtest", "END\n", &[("GAME.TXT", GAME), ("ORDERS.TXT", ORDERS)]);
    let g = dip_game::gamedir::GameDir::open(&game, None, &dip_play::Variants::new()).unwrap();
    let vocab = g.vocabulary().unwrap();
    let pes = dip_game::gamedir::field_test(&g.variant, &vocab, "PeS");
    assert!(pes.contains("St Petersburg") && pes.contains("coast      sc"), "{pes}");
    let lpl = dip_game::gamedir::field_test(&g.variant, &vocab, "Lpl");
    assert!(lpl.contains("Liverpool"), "{lpl}");
    let _ = std::fs::remove_dir_all(root);
}

/// A DipWork variant folder in the manual's own words: its FIELDS.TXT
/// border lines (`- Gas Spa ja SpN`: the army moves, a fleet goes to the
/// north coast), subfields `SpN`, `SpS`, `PeS`, DipWork's field names
/// `Lpl`, `MID`, `BOT`.
fn iberia(root: &Path) {
    let dir = root.join("variants/iberia");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("VARIANT.TXT"),
        "VARNAME Iberia
CONVOY_RELEVANT_UNITNR 3
FNFIELDTEXT FIELDS.TXT

NATIONLIST
En England
Fr France
Ru Russia

UNITLIST
A Ar Army # Costs=1 St=1 convoyable AllowedIn=AB
F Fl Fleet # Costs=1 St=1 canConvoy AllowedIn=FB

END
",
    )
    .unwrap();
    std::fs::write(
        dir.join("FIELDS.TXT"),
        "# Lpl 10 10 - CB 1 En
# Yor 30 10 - CB 0 -
# MID 10 60 - O 0 -
# Gas 40 50 - CB 1 Fr
# Spa 30 80 - CB 1 -
# SpN 30 70 Spa CB 0 -
# SpS 30 90 Spa CB 0 -
# Pet 90 10 - CB 1 Ru
# PeS 90 20 Pet CB 0 -
# BOT 70 20 - O 0 -
# Fin 70 5 - CB 0 -

- Lpl Yor ja nein -
- Yor Lpl ja nein -
- MID Gas nein ja ja
- Gas MID nein ja ja
- MID Spa nein imp ja
- MID SpN nein ja -
- MID SpS nein ja -
- SpN MID - ja -
- SpS MID - ja -
- Spa MID nein - ja
- Gas Spa ja SpN -
- Gas SpN Spa ja -
- Spa Gas ja - -
- SpN Gas - ja -
- Fin Pet ja PeS -
- Pet Fin ja - -
- PeS Fin - ja -
- BOT Pet nein PeS ja
- Pet BOT nein - ja
- PeS BOT - ja -
- BOT Fin nein ja ja
- Fin BOT nein ja ja

= MID MAO
END
",
    )
    .unwrap();
}

#[test]
fn reports_printed_dips_names_and_cut_coasts_at_the_manuals_widths() {
    let game_txt = "VARIANTPATH variants\\iberia
YEAR Frühjahr 1901
TABCOLUMNWIDTH 11
NATION En
UNITS
A Lpl
CENTERS
Lpl
NATION Fr
UNITS
F Gas
F MID
CENTERS
Gas
NATION Ru
UNITS
F PeS
CENTERS
Pet
END
";
    let orders = "NATION En\nA Lpl-Yor\nNATION Fr\nF Gas-SpN\nF MID-SpS\nNATION Ru\nF PeS-BOT\nEND\n";
    let (root, game) = project("names", "END\n", &[("GAME.TXT", game_txt), ("ORDERS.TXT", orders)]);
    iberia(&root);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let orders: Vec<&str> = r.report.orders.iter().map(|l| l.order.as_str()).collect();
    for o in ["A Lpl-Yor", "F Gas-SpN", "F MID-SpS", "F PeS-BOT"] {
        assert!(orders.contains(&o), "{o}: {orders:?}");
    }
    let plain = std::fs::read_to_string(game.join("PLAIN.TXT")).unwrap();
    for cell in ["[F Gas-SpN]", "[F MID-SpS]", "F PeS-BOT", "A Lpl-Yor"] {
        assert!(plain.contains(cell), "{cell}:\n{plain}");
    }
    // NEWGAME.TXT is written in the variant's names too, and reads back.
    let newgame = std::fs::read_to_string(game.join("NEWGAME.TXT")).unwrap();
    assert!(newgame.contains("F BOT") && newgame.contains("A Yor"), "{newgame}");
    assert!(newgame.contains("# France: [F Gas-SpN]"), "{newgame}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_manuals_width_11_cut_coasts_off_standard_orders() {
    // The standard map names no coast of its own: `F Stp/sc-Bot` is 12
    // characters, and at TABCOLUMNWIDTH 11 it goes on in the next row.
    let orders = "YEAR Frühjahr 1901\nTABCOLUMNWIDTH 11\nNATION Ru\nF Stp/sc-Bot\nNATION Fr\nF Bre-Mao\nEND\n";
    let (root, game) = project("width", "END\n", &[("GAME.TXT", GAME), ("ORDERS.TXT", orders)]);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.report.orders.iter().any(|l| l.order == "F Stp/sc-Bot"),
        "{:?}",
        r.report.orders
    );
    let plain = std::fs::read_to_string(game.join("PLAIN.TXT")).unwrap();
    let cells: Vec<&str> = plain.lines().flat_map(|l| l.split('\t')).map(str::trim).collect();
    assert!(!cells.contains(&"F Stp/sc-Bo"), "{plain}");
    let at = cells
        .iter()
        .position(|c| *c == "F Stp/sc-")
        .unwrap_or_else(|| panic!("{plain}"));
    assert!(cells[at..].contains(&"Bot"), "{plain}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_adjustments_table_was_not_in_nationlist_order() {
    // Fall 1904 of the example game: Germany orders no disband (civil
    // disorder removes a unit), Russia orders a build. Germany comes
    // before Russia in NATIONLIST, and in the table.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/09-F1904M");
    let (root, game) = project("nationlist", "END\n", &[]);
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(src.join(f), game.join(f)).unwrap();
    }
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let nations: Vec<&str> = r.report.builds.iter().map(|l| l.nation.as_str()).collect();
    let first = |n: &str| {
        nations
            .iter()
            .position(|x| *x == n)
            .unwrap_or_else(|| panic!("{n}: {nations:?}"))
    };
    assert!(first("Germany") < first("Russia"), "{nations:?}");
    let mut sorted = nations.clone();
    let rank = |n: &&str| {
        ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
            .iter()
            .position(|x| x == n)
    };
    sorted.sort_by_key(rank);
    assert_eq!(nations, sorted);
    let plain = std::fs::read_to_string(game.join("PLAIN.TXT")).unwrap();
    let table = &plain[plain.find("Adjustments").unwrap()..];
    let header = table.lines().nth(1).unwrap();
    assert!(header.find("Germany") < header.find("Russia"), "{header}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_plain_ascii_dos_game_got_a_utf8_dash_in_plain_txt() {
    let crlf = |t: &str| t.replace('\n', "\r\n");
    let orders = ORDERS.replace("Frühjahr", "Spring");
    let (root, game) = project(
        "ascii",
        "END\n",
        &[("GAME.TXT", &crlf(GAME)), ("ORDERS.TXT", &crlf(&orders))],
    );
    run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    for f in ["PLAIN.TXT", "NEWGAME.TXT", "ERRORS.TXT"] {
        let bytes = std::fs::read(game.join(f)).unwrap();
        assert!(bytes.is_ascii(), "{f}: {}", String::from_utf8_lossy(&bytes));
        assert!(bytes.windows(2).any(|w| w == b"\r\n"), "{f}: DOS line ends");
    }
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn three_phase_output_from_conflicted_lacked_the_attack_mark() {
    // DipWork 2.0.7: "In PLAIN.TXT auch Ausgabe von Angriffen VOR
    // Rückzügen mit '<' (dadurch 3-Phasenspiel-Ausgabe besser mit
    // /op=conflicted.ord)". Russia's army in Galicia is dislodged.
    let g = format!("THREEPHASE ja\n{}", GAME.replace("A War\n", "A Gal\n"));
    let orders = "YEAR Frühjahr 1901\nNATION Au\nA Bud-Gal\nA Vie S A Bud-Gal\nNATION Ru\nA Gal xxx\nEND\n";
    let (root, game) = project("attack-mark", "END\n", &[("GAME.TXT", &g), ("ORDERS.TXT", orders)]);
    let mut stages = Stages::all();
    stages.output = Some("CONFLCED.ORD".into());
    let r = run(&game, &stages, None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let gal = r.report.orders.iter().find(|l| l.order == "A Gal H").unwrap();
    assert_eq!(gal.attacked_from.as_deref(), Some("Bud"));
    let plain = std::fs::read_to_string(game.join("PLAIN.TXT")).unwrap();
    assert!(plain.contains("A Gal<Bud"), "{plain}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn exact_match_read_the_manuals_own_example_only_through_spellcheck() {
    // The manual's words: with EXACT_MATCH ja "A Lon S A Wal xxx" is
    // correct, "a lon s a wal xxx" is not. SPELLCHECK 0: no correction
    // may make the first one pass.
    let game = GAME.replace("A Lpl\nF Edi\nF Lon\n", "A Wal\nF Edi\nA Lon\n");
    let orders = "YEAR Frühjahr 1901\nEXACT_MATCH ja\nSPELLCHECK 0\nNATION En\nA Lon S A Wal xxx\nA Wal xxx\nNATION Fr\na par s a mar xxx\nEND\n";
    let (root, game) = project("exact-own", "END\n", &[("GAME.TXT", &game), ("ORDERS.TXT", orders)]);
    let r = run(&game, &Stages::all(), None, &dip_play::Variants::new()).unwrap_or_else(|e| panic!("{e}"));
    let errors = std::fs::read_to_string(game.join("ERRORS.TXT")).unwrap();
    let lon = r
        .report
        .orders
        .iter()
        .find(|l| l.order.starts_with("A Lon S"))
        .unwrap_or_else(|| panic!("{:?}\n{errors}", r.report.orders));
    assert!(!lon.automatic && !lon.failed && lon.code.is_none(), "{lon:?}\n{errors}");
    assert!(!errors.contains("A Lon S A Wal xxx"), "{errors}");
    // The lower-case line is not the variant's case: France's army holds
    // by the missing-order rule.
    assert!(errors.contains("a par s a mar xxx"), "{errors}");
    let _ = std::fs::remove_dir_all(root);
}
