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
