//! Replaying MILA saved games: a small file of random games played by MILA's
//! engine (scripts/mila-games.py) must agree phase by phase.

use dip_core::Ruleset;
use dip_game::mila::read_games;
use dip_game::replay::{parse_phase_name, replay_game};

const GAMES: &[u8] = include_bytes!("data/mila-3games.jsonl");
const GAMES_GZ: &[u8] = include_bytes!("data/mila-3games-copy.jsonl.gz");

fn rules() -> Ruleset {
    Ruleset::parse("datc convoy-adjacent=dptg").unwrap()
}

#[test]
fn mila_games_agree_phase_by_phase() {
    let v = dip_variants::standard();
    for bytes in [GAMES, GAMES_GZ] {
        let games = read_games(bytes, "mila-3games").unwrap();
        assert_eq!(games.len(), 3);
        let mut agree = 0;
        for g in &games {
            let r = replay_game(&v.map, &rules(), g).unwrap();
            assert!(r.differ.is_empty(), "{:#?}", r.differ);
            agree += r.agree;
        }
        assert_eq!(agree, 34);
    }
}

/// A file whose recorded results were changed must be caught.
#[test]
fn a_changed_result_is_reported() {
    let v = dip_variants::standard();
    let text = std::str::from_utf8(GAMES).unwrap();
    let first = text.lines().next().unwrap();
    let mut g: serde_json::Value = serde_json::from_str(first).unwrap();
    // Move a unit in the second phase's recorded position.
    let units = &mut g["phases"][1]["state"]["units"]["FRANCE"];
    let list = units.as_array_mut().unwrap();
    list.pop();
    list.push(serde_json::Value::String("A GAS".into()));
    let line = serde_json::to_string(&g).unwrap();
    let games = read_games(line.as_bytes(), "x").unwrap();
    let r = replay_game(&v.map, &rules(), &games[0]).unwrap();
    assert_eq!(
        r.differ.len(),
        2,
        "the phase before and the phase after the change differ"
    );
    assert!(r.differ[0].problems.iter().any(|p| p.starts_with("units")));
}

#[test]
fn unreadable_files_name_the_line() {
    let e = read_games(b"\n{\"phases\": []}\nnot json\n", "bad.jsonl").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.to_string().starts_with("bad.jsonl:3:"));
}

#[test]
fn phase_names() {
    let p = parse_phase_name("W1905A").unwrap();
    assert_eq!(p.short(), "W1905A");
    assert_eq!(parse_phase_name("F1901R").unwrap().short(), "F1901R");
    assert!(parse_phase_name("X1901M").is_none());
    assert!(parse_phase_name("S19").is_none());
}

/// Names shorter than six characters were refused, so a game in year 1
/// (ancmed) could not name its own phase `S1M`.
#[test]
fn phase_names_of_years_under_1000_were_refused() {
    for (name, year) in [("S1M", 1), ("F12R", 12), ("W123A", 123), ("S0001M", 1), ("F0012M", 12)] {
        let p = parse_phase_name(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(p.year, year, "{name}");
        assert_eq!(parse_phase_name(&p.short()), Some(p), "{name}");
    }
    assert_eq!(parse_phase_name("S1M"), parse_phase_name("S0001M"));
    for bad in ["", "S", "SM", "S-M", "SXM", "S1X", "X1M"] {
        assert!(parse_phase_name(bad).is_none(), "{bad}");
    }
}

/// A MILA phase name's year was any `i32` (`S2147483647M`): out of the
/// range every other reader keeps, it is no phase name.
#[test]
fn phase_name_year_2147483647_was_read() {
    assert!(parse_phase_name("S2147483647M").is_none());
    assert!(parse_phase_name("S99999999999M").is_none());
    assert_eq!(parse_phase_name("S1000000M").unwrap().year, 1_000_000);
}

/// `dip replay` compared a retreat phase by its units only: a wrong retreat
/// option or a missing standoff went unnoticed.
#[test]
fn replay_compares_retreat_options_and_standoffs() {
    let v = dip_variants::standard();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/game1905/current/HISTORY.REC"
    ))
    .unwrap();
    let rec = dip_game::record::GameRecord::from_text(&v.map, &text, "HISTORY.REC").unwrap();
    let saved = dip_game::record::to_mila(&v.map, &rec);
    let rules = Ruleset::parse(&rec.rules).unwrap();
    let r = replay_game(&v.map, &rules, &saved).unwrap();
    assert!(r.differ.is_empty(), "{:#?}", r.differ);
    // The phase before a retreat phase.
    let i = saved
        .phases
        .iter()
        .position(|p| p.name.ends_with('R'))
        .expect("a retreat phase in the example game");
    let mut g = serde_json::to_value(&saved).unwrap();
    let retreats = g["phases"][i]["state"]["retreats"].as_object_mut().unwrap();
    let (_, units) = retreats
        .iter_mut()
        .find(|(_, u)| !u.as_object().unwrap().is_empty())
        .unwrap();
    for (_, places) in units.as_object_mut().unwrap() {
        places
            .as_array_mut()
            .unwrap()
            .push(serde_json::Value::String("MOS".into()));
    }
    let changed: dip_game::mila::SavedGame = serde_json::from_value(g).unwrap();
    let r = replay_game(&v.map, &rules, &changed).unwrap();
    assert!(
        r.differ
            .iter()
            .any(|d| d.problems.iter().any(|p| p.starts_with("retreat options"))),
        "{:#?}",
        r.differ
    );
}

/// A few compressed bytes that unpack to gigabytes were read whole.
#[test]
fn mila_gzip_bomb_is_capped() {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..260 {
        enc.write_all(&chunk).unwrap();
    }
    let gz = enc.finish().unwrap();
    assert!(gz.len() < 2 << 20);
    let e = read_games(&gz, "bomb.jsonl.gz").unwrap_err();
    assert!(e.message.contains("more than 256 MiB"), "{e}");
}

#[test]
fn mila_byte_order_mark_is_skipped() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(GAMES);
    assert_eq!(read_games(&bytes, "bom.jsonl").unwrap().len(), 3);
}

/// Found by Parlance's DumbBots against `dip daide`: a move that lost a
/// head-to-head battle (F1903M: A MUN-KIE against A KIE-MUN supported
/// from TYR) was read from the file as a standoff in the province its
/// attacker left, so a correct record was reported as differing.
#[test]
fn a_move_that_lost_a_head_to_head_battle_is_no_standoff() {
    let v = dip_variants::standard();
    let text = std::str::from_utf8(GAMES).unwrap();
    let mut g: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut first = g["phases"][0].clone();
    let empty: serde_json::Value = serde_json::json!({"AUSTRIA": [], "ENGLAND": [], "FRANCE": [], "GERMANY": [], "ITALY": [], "RUSSIA": [], "TURKEY": []});
    let mut units = empty.clone();
    units["FRANCE"] = serde_json::json!(["A MUN"]);
    units["GERMANY"] = serde_json::json!(["A KIE", "A TYR"]);
    first["state"]["units"] = units;
    first["orders"] = empty.clone();
    first["orders"]["FRANCE"] = serde_json::json!(["A MUN - KIE"]);
    first["orders"]["GERMANY"] = serde_json::json!(["A KIE - MUN", "A TYR S A KIE - MUN"]);
    first["results"] = serde_json::json!({"A MUN": ["bounce", "dislodged"], "A KIE": [], "A TYR": []});
    let mut next = first.clone();
    next["name"] = "S1901R".into();
    next["state"]["name"] = "S1901R".into();
    let mut after = empty.clone();
    after["FRANCE"] = serde_json::json!(["*A MUN"]);
    after["GERMANY"] = serde_json::json!(["A MUN", "A TYR"]);
    next["state"]["units"] = after;
    next["state"]["retreats"]["FRANCE"] =
        serde_json::json!({"A MUN": ["A MUN R BER", "A MUN R BOH", "A MUN R BUR", "A MUN R RUH", "A MUN R SIL"]});
    next["orders"] = empty;
    next["results"] = serde_json::json!({});
    g["phases"] = serde_json::json!([first, next]);
    let line = serde_json::to_string(&g).unwrap();
    let games = read_games(line.as_bytes(), "x").unwrap();
    let r = replay_game(&v.map, &rules(), &games[0]).unwrap();
    assert!(r.differ.is_empty(), "{:#?}", r.differ);
    assert_eq!(r.agree, 1);
}

/// DATC 6.H.6: a unit retreated into a province left empty by a standoff
/// and the replay agreed, because the file's retreat phase does not
/// record standoffs (`retreats` empty or absent): dip's own standoffs from
/// the movement before now carry into the retreat phase.
#[test]
fn retreat_into_a_standoff_province_counted_as_agreement() {
    const GAME: &str = include_str!("data/retreat-into-standoff.jsonl");
    let v = dip_variants::standard();
    let mut absent: serde_json::Value = serde_json::from_str(GAME).unwrap();
    for p in absent["phases"].as_array_mut().unwrap() {
        p["state"].as_object_mut().unwrap().remove("retreats");
    }
    for text in [GAME.to_string(), absent.to_string()] {
        let games = read_games(text.as_bytes(), "retreat-into-standoff.jsonl").unwrap();
        let r = replay_game(&v.map, &rules(), &games[0]).unwrap();
        let retreat = r.differ.iter().find(|d| d.phase == "S1901R");
        let problems = retreat.map(|d| d.problems.join("\n")).unwrap_or_default();
        assert!(
            problems.contains("`A GAL R UKR`: file says succeeded, dip says illegal"),
            "{:#?}",
            r.differ
        );
    }
}

/// A saved phase with two units in one province used to be trimmed to one
/// of them (the later stood) and replayed as if the file said so.
#[test]
fn a_saved_phase_with_a_unit_the_map_cannot_hold_is_refused_not_trimmed() {
    let v = dip_variants::standard();
    let text = std::str::from_utf8(GAMES).unwrap();
    let mut g: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let name = g["phases"][0]["name"].as_str().unwrap().to_string();
    let units = g["phases"][0]["state"]["units"]["FRANCE"].as_array_mut().unwrap();
    let first = units[0].as_str().unwrap().to_string();
    units.push(serde_json::Value::String(first.clone()));
    let line = serde_json::to_string(&g).unwrap();
    let games = read_games(line.as_bytes(), "x").unwrap();
    let e = replay_game(&v.map, &rules(), &games[0]).unwrap_err();
    assert!(
        e.contains(&name) && e.contains("a second unit in the same province"),
        "{e}"
    );
}
