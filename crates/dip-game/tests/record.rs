//! Game records: MILA saved games in and out, the text form read back, and
//! the history a game directory keeps.

use dip_core::Ruleset;
use dip_game::mila::read_games;
use dip_game::record::{from_mila, to_mila, GameRecord};
use dip_game::replay::replay_game;

const GAMES: &[u8] = include_bytes!("data/mila-3games.jsonl");

#[test]
fn mila_games_become_records_and_read_back() {
    let v = dip_variants::standard();
    for g in read_games(GAMES, "mila").unwrap() {
        let rec = from_mila(&v.map, &g).unwrap();
        assert!(!rec.phases.is_empty());
        let text = rec.to_text(&v.map);
        let back = GameRecord::from_text(&v.map, &text, "x.rec").unwrap();
        assert_eq!(back, rec);
        // Exported again, the game replays without a difference.
        let saved = to_mila(&v.map, &rec);
        let r = replay_game(&v.map, &Ruleset::parse(&rec.rules).unwrap(), &saved).unwrap();
        assert!(r.differ.is_empty(), "{:#?}", r.differ);
        assert_eq!(r.agree, rec.phases.len());
        // The last position is MILA's last.
        let last = rec.last_state(&v.map).unwrap();
        assert_eq!(last.phase.short(), g.phases.last().unwrap().name);
    }
}

/// The server and the board play a record on the variant they share
/// (`dip_play::Variants`), not on a copy of its map made per request: the
/// text, the MILA export and the last position are the same either way.
#[test]
fn a_record_played_on_a_shared_variant_is_written_as_on_its_map() {
    use dip_game::as_read::PlayedOn;
    let variants = dip_play::Variants::new();
    let shared = variants.get("standard").unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&shared.shared(), &shared),
        "a shared variant is not copied"
    );
    let map = shared.map().clone();
    for g in read_games(GAMES, "mila").unwrap() {
        let rec = from_mila(&map, &g).unwrap();
        assert_eq!(rec.to_text(&shared), rec.to_text(&map));
        let (on_shared, on_map) = (to_mila(&shared, &rec), to_mila(&map, &rec));
        assert_eq!(
            serde_json::to_string(&on_shared).unwrap(),
            serde_json::to_string(&on_map).unwrap()
        );
        assert_eq!(on_shared.phases.len(), rec.phases.len() + 1);
        assert_eq!(rec.last_state(&shared), rec.last_state(&map));
    }
}

#[test]
fn the_exported_json_is_mila_shaped() {
    let v = dip_variants::standard();
    let g = &read_games(GAMES, "mila").unwrap()[0];
    let saved = to_mila(&v.map, &from_mila(&v.map, g).unwrap());
    let json = serde_json::to_value(&saved).unwrap();
    assert_eq!(json["phases"][0]["name"], "S1901M");
    assert!(json["phases"][0]["orders"]["FRANCE"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o.as_str().unwrap().contains(' ')));
    assert_eq!(
        json["phases"][0]["state"]["units"]["RUSSIA"].as_array().unwrap().len(),
        4
    );
}

#[test]
fn bad_records_name_the_line() {
    let v = dip_variants::standard();
    let e = GameRecord::from_text(
        &v.map,
        "game x\nphase spring 1901 movement\nunits\n  England: F lon\norders\n  England: F lon - xyz : fails\nend\n",
        "bad.rec",
    )
    .unwrap_err();
    assert_eq!(e.line, 6);
    let e = GameRecord::from_text(&v.map, "game x\nbogus\n", "bad.rec").unwrap_err();
    assert_eq!(e.line, 2);
    let e = GameRecord::from_text(&v.map, "phase spring 1901 movement\nunits\n", "bad.rec").unwrap_err();
    assert_eq!(e.line, 1);
}

/// A record's last position written as a Realpolitik `.gam` and read back
/// through the Realpolitik reader gives the same units and owners.
#[test]
fn last_position_as_realpolitik_game_file() {
    let v = dip_variants::standard();
    let g = &read_games(GAMES, "mila").unwrap()[0];
    let rec = from_mila(&v.map, g).unwrap();
    let mut last = rec.last_state(&v.map).unwrap();
    // Realpolitik files start games at movement phases.
    last.phase.kind = dip_core::PhaseKind::Movement;
    last.clear_dislodged();
    let gam = dip_game::record::to_gam(&v, &last);
    let dir = std::env::temp_dir().join(format!("dip-gam-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model = dip_variants::Model::from_variant(&v);
    let files = dip_variants::formats::write(&model, dip_variants::formats::Format::Realpolitik, &dir).unwrap();
    let gam_path = files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "gam"))
        .unwrap();
    std::fs::write(gam_path, &gam).unwrap();
    let var = files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "var"))
        .unwrap();
    let back = dip_variants::load(&var.to_string_lossy()).unwrap();
    let units = |m: &dip_core::Map, s: &dip_core::State| {
        let mut u: Vec<String> = s
            .units()
            .map(|(_, u)| {
                format!(
                    "{} {} {}",
                    m.power(u.power).abbr,
                    m.unit_type(u.kind).letter,
                    m.region_name(u.region)
                )
            })
            .collect();
        u.sort();
        u
    };
    assert_eq!(units(&back.map, &back.start), units(&v.map, &last));
    for &c in v.map.supply_centers() {
        let name = &v.map.province(c).abbr;
        let bc = back.map.find_province(name).unwrap();
        assert_eq!(
            back.start.owner(bc).map(|p| back.map.power(p).abbr.clone()),
            last.owner(c).map(|p| v.map.power(p).abbr.clone()),
            "{name}"
        );
    }
    assert_eq!(back.start.phase.year, last.phase.year);
}

/// A record written as DIP's season files and read back is the same game.
#[test]
fn records_through_dip_season_files() {
    let v = dip_variants::standard();
    for g in read_games(GAMES, "mila").unwrap() {
        let rec = from_mila(&v.map, &g).unwrap();
        let files = dip_game::dipfile::to_dip_files(&v.map, &rec, "game");
        assert_eq!(files[0].0, "game_s01.dip");
        assert_eq!(files[1].0, "game_a01.dip");
        let back = dip_game::dipfile::from_dip_files(&v.map, &files).unwrap();
        // The seasons' later phases are played again from the season's start:
        // the same orders and units (MILA's files keep no standoffs).
        assert_eq!(back.phases.len(), rec.phases.len());
        for (a, b) in back.phases.iter().zip(&rec.phases) {
            assert_eq!(a.orders, b.orders);
            assert_eq!(a.state.phase, b.state.phase);
            assert!(a.state.units().eq(b.state.units()), "{}", a.state.phase.short());
        }
    }
    let bad = vec![("x_s01.dip".to_string(), "not a dip file\n".to_string())];
    assert_eq!(dip_game::dipfile::from_dip_files(&v.map, &bad).unwrap_err().line, 1);
}

#[test]
fn record_with_phases_out_of_order_is_refused() {
    let v = dip_variants::standard();
    let rec = dip_game::record::GameRecord {
        name: "x".into(),
        variant: "standard".into(),
        rules: "datc".into(),
        phases: vec![dip_game::record::PhaseRecord {
            state: v.start.clone(),
            orders: vec![],
        }],
    };
    let one = rec.to_text(&v.map);
    let block = &one[one.find("\nphase ").unwrap()..];
    // The same phase twice.
    let twice = format!("{one}{block}");
    let e = dip_game::record::GameRecord::from_text(&v.map, &twice, "r.rec").unwrap_err();
    assert!(e.message.contains("time order"), "{e}");
    // A year skipped.
    let jump = format!("{one}{}", block.replace("1901", "1903"));
    let e = dip_game::record::GameRecord::from_text(&v.map, &jump, "r.rec").unwrap_err();
    assert!(e.message.contains("year is missing"), "{e}");
    // Backwards.
    let back = format!("{}{block}", one.replace("1901", "1902"));
    assert!(dip_game::record::GameRecord::from_text(&v.map, &back, "r.rec").is_err());
}

#[test]
fn dip_files_in_shell_order_make_a_record_in_time_order() {
    let v = dip_variants::standard();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/current/HISTORY.REC"),
    )
    .unwrap();
    let rec = dip_game::record::GameRecord::from_text(&v.map, &text, "HISTORY.REC").unwrap();
    let mut files = dip_game::dipfile::to_dip_files(&v.map, &rec, "game");
    // `d/*.dip`: the shell sorts game_a01 before game_s01.
    files.sort();
    assert!(files[0].0.contains("_a01"));
    let back = dip_game::dipfile::from_dip_files(&v.map, &files).unwrap();
    assert_eq!(back.phases.len(), rec.phases.len());
    for w in back.phases.windows(2) {
        assert!(w[0].state.phase < w[1].state.phase);
    }
    // The same season twice is refused.
    let mut twice = files.clone();
    twice.push(files[0].clone());
    assert!(dip_game::dipfile::from_dip_files(&v.map, &twice).is_err());
}

#[test]
fn dip_file_names_of_1901_and_2001_differ() {
    let v = dip_variants::standard();
    let mut s = v.start.clone();
    let a = dip_game::dipfile::file_name("g", &s);
    s.phase.year = 2001;
    let b = dip_game::dipfile::file_name("g", &s);
    assert_eq!(a, "g_s01.dip");
    assert_ne!(a, b);
}

/// The first game of the file with `change` made to its JSON, converted.
fn import_changed(change: impl Fn(&mut serde_json::Value)) -> Result<GameRecord, String> {
    let v = dip_variants::standard();
    let first = std::str::from_utf8(GAMES).unwrap().lines().next().unwrap();
    let mut g: serde_json::Value = serde_json::from_str(first).unwrap();
    change(&mut g);
    let games = read_games(g.to_string().as_bytes(), "x").unwrap();
    from_mila(&v.map, &games[0])
}

/// `dip record import` wrote a record from a game whose recorded results
/// or positions had been changed by hand: the record's positions then did
/// not follow from its orders. Each change below is refused, naming the
/// phase and what differs.
#[test]
fn record_import_accepted_a_tampered_record() {
    assert!(import_changed(|_| {}).is_ok(), "the untouched game is accepted");
    type Change = fn(&mut serde_json::Value);
    let cases: [(&str, Change, &str, &str); 5] = [
        (
            "a unit moved in the second phase's position",
            |g| {
                let list = g["phases"][1]["state"]["units"]["FRANCE"].as_array_mut().unwrap();
                list.pop();
                list.push("A GAS".into());
            },
            "phase S1901M",
            "units",
        ),
        (
            "a centre given away in the third phase",
            |g| {
                let c = &mut g["phases"][2]["state"]["centers"];
                let paris = c["FRANCE"].as_array_mut().unwrap();
                paris.retain(|x| x != "PAR");
                c["GERMANY"].as_array_mut().unwrap().push("PAR".into());
            },
            "phase F1901M",
            "centres",
        ),
        (
            "a successful move recorded as bounced",
            |g| {
                let results = g["phases"][0]["results"].as_object_mut().unwrap();
                let (key, _) = results
                    .iter()
                    .find(|(k, v)| k.starts_with("A ") && v.as_array().unwrap().is_empty())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .unwrap();
                results.insert(key, serde_json::json!(["bounce"]));
            },
            "phase S1901M",
            "file says failed",
        ),
        (
            "an order for a unit the position does not have",
            |g| {
                g["phases"][0]["orders"]["ENGLAND"]
                    .as_array_mut()
                    .unwrap()
                    .push("A YOR H".into());
                g["phases"][0]["results"]["A YOR"] = serde_json::json!([]);
            },
            "phase S1901M",
            "no such unit of ENGLAND",
        ),
        (
            "a phase moved out of sequence",
            |g| {
                let phases = g["phases"].as_array_mut().unwrap();
                phases.swap(1, 2);
            },
            "phase 3 of the file",
            "time order",
        ),
    ];
    for (what, change, phase, differs) in cases {
        let e = import_changed(change).expect_err(what);
        assert!(e.contains(phase) && e.contains(differs), "{what}: {e}");
    }
}

/// A board saved in the middle of a season, after a phase resolved with
/// no orders at all, read back one phase short: the empty last section
/// was taken for the stage the file was saved at (DIP's "before
/// retreats"), not for the phase played.
#[test]
fn season_saved_after_a_phase_without_orders_reads_back_played() {
    use dip_game::dipfile::{read_season, write_season, SeasonText};
    use dip_game::record::PhaseRecord;
    let v = dip_variants::standard();
    let vocab = dip_text::Vocabulary::new(&v.map);
    let phases = [PhaseRecord {
        state: v.start.clone(),
        orders: Vec::new(),
    }];
    for entered in [&[][..], &["ENG F(Lon) - NTH".to_string()][..]] {
        let text = write_season(
            &vocab,
            &SeasonText {
                title: "t",
                variant: "standard",
                rules: "datc",
                players: &[],
                start: &v.start,
                phases: &phases,
                entered,
                finished: false,
            },
        );
        let s = read_season(&vocab, "t.dip", &text).unwrap();
        assert_eq!(s.record.phases.len(), 1, "{text}");
        assert_eq!(s.end.phase.short(), "F1901M", "{text}");
        assert_eq!(s.entered, entered, "{text}");
    }
    // A file DIP saved before the moves: the empty section is its stage.
    let text = "DIP game file\ngame t\nvariant standard\nrules datc\n".to_string()
        + &dip_text::format_position(&v.map, &v.start).replace("variant standard\n", "")
        + "moves\n";
    let s = read_season(&vocab, "t.dip", &text).unwrap();
    assert!(s.record.phases.is_empty(), "{text}");
}

/// Each of the record's phases as a caller that plays them (the server,
/// the board) has them: played once, in order.
fn played_phases(map: &dip_core::Map, rec: &GameRecord) -> Vec<dip_play::Played> {
    let mut game = dip_game::as_read::AsRead::on(map, Ruleset::parse(&rec.rules).unwrap());
    rec.phases
        .iter()
        .map(|ph| game.play(&ph.state, &ph.orders).clone())
        .collect()
}

/// A caller that has played the record's phases (the server, to make the
/// record) exports them without playing them again, to the same JSON.
#[test]
fn a_record_exported_from_its_played_phases_is_the_one_played_again() {
    let v = dip_variants::standard();
    for g in read_games(GAMES, "mila").unwrap() {
        let rec = from_mila(&v.map, &g).unwrap();
        let played = played_phases(&v.map, &rec);
        assert_eq!(
            serde_json::to_string(&dip_game::record::to_mila_played(&v.map, &rec, &played)).unwrap(),
            serde_json::to_string(&to_mila(&v.map, &rec)).unwrap()
        );
    }
}

/// A caller that has played the record's phases (the server's DipWork
/// export, the board's save) writes the record's text from them, without
/// playing them again: the text of the record played again. Phases it did
/// not play keep their orders, without results, and read back.
#[test]
fn a_record_written_from_its_played_phases_is_the_one_played_again() {
    let v = dip_variants::standard();
    for g in read_games(GAMES, "mila").unwrap() {
        let rec = from_mila(&v.map, &g).unwrap();
        let played = played_phases(&v.map, &rec);
        let text = rec.to_text_played(&v.map, &played);
        assert_eq!(text, rec.to_text(&v.map));
        let half = rec.to_text_played(&v.map, &played[..played.len() / 2]);
        assert_eq!(GameRecord::from_text(&v.map, &half, "half.rec").unwrap(), rec);
    }
}
