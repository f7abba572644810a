//! `dip war` from the command line.

use std::process::Command;

fn dip(args: &[&str]) -> (i32, String, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("dip runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dip-war-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn show_json_has_exactly_the_fields() {
    let (code, out, err) = dip(&["war", "show", "examples/global-war/WAR02.REC", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k.join(" ")
    };
    assert_eq!(
        keys(&v),
        "countries event event_day players recovery sets_turned_in team_passwords"
    );
    assert_eq!(
        keys(&v["event"]),
        "code hidden_names kind players status unlimited_fortifications"
    );
    assert_eq!(keys(&v["players"][0]), "commendations last_moved name number vote");
    assert_eq!(keys(&v["countries"][0]), "armies name number owner");
    assert_eq!(
        keys(&v["recovery"]),
        "armies_to_deploy doing earned_commendation map player"
    );
    assert_eq!(v["event"]["code"], 1004);
    assert_eq!(v["players"][2]["name"], "Björn");
    assert_eq!(v["recovery"]["map"], "Europe");
    let (code, out, _) = dip(&["war", "show", "examples/global-war/WAR01.DAT"]);
    assert_eq!(code, 0);
    assert!(out.contains("Event day: 1989-07-30T14:29:37"), "{out}");
}

#[test]
fn render_svg_and_png() {
    let svg = tmp("map.svg");
    let (code, _, err) = dip(&[
        "war",
        "render",
        "examples/global-war/WAR01.DAT",
        "-o",
        &svg,
        "--view",
        "asia",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("Kamchatka"));
    let png = tmp("map.png");
    let (code, _, err) = dip(&["war", "render", "examples/global-war/WAR02.REC", "-o", &png]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let (code, _, err) = dip(&[
        "war",
        "render",
        "examples/global-war/WAR01.DAT",
        "-o",
        &svg,
        "--view",
        "Atlantis",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("Atlantis"));
}

#[test]
fn bad_file_gives_file_and_line() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/global-war/WAR01.DAT"
    ))
    .unwrap();
    let bad = text.replacen("\r\nT\r\n", "\r\nMaybe\r\n", 1);
    let path = tmp("WAR09.DAT");
    std::fs::write(&path, bad).unwrap();
    let (code, _, err) = dip(&["war", "show", &path]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{path}:4: player 1's vote")), "{err}");
}

#[test]
fn new_game_and_bench() {
    let path = tmp("WAR04.DAT");
    let _ = std::fs::remove_file(&path);
    let (code, _, err) = dip(&[
        "war",
        "new",
        "-o",
        &path,
        "--players",
        "Ann",
        "Bob",
        "Cid",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = dip(&["war", "show", &path, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["event"]["status"], "in_progress");
    assert_eq!(v["players"].as_array().unwrap().len(), 3);
    let (code, _, _) = dip(&["war", "new", "-o", &path, "--players", "Ann", "Bob", "Cid"]);
    assert_eq!(code, 2, "an existing file is not overwritten");
    let (code, out, err) = dip(&["war", "bench", "--games", "5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 5);
    assert!(v["games_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn play_a_rec_file_on() {
    let out = tmp("WAR02.DAT");
    let _ = std::fs::remove_file(&out);
    let (code, text, err) = dip(&[
        "war",
        "play",
        "examples/global-war/WAR02.REC",
        "-o",
        &out,
        "--turns",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("battles"), "{text}");
    let (code, json, _) = dip(&["war", "show", &out, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["event"]["code"], 1004);
    // The sign-up game has no position to play.
    let (code, _, err) = dip(&["war", "play", "examples/global-war/WAR03.DAT", "-o", &tmp("x.DAT")]);
    assert_eq!(code, 2);
    assert!(err.contains("WAR03.DAT:1:"), "{err}");
}

/// The "player N to move" that `dip war play` prints.
fn to_move(out: &str) -> String {
    out.split("; ").last().unwrap_or("").trim().to_string()
}

#[test]
fn play_wrote_every_player_as_moving_at_once_and_lost_the_turn() {
    for (input, turns) in [
        ("examples/global-war/WAR01.DAT", "1"),
        ("examples/global-war/WAR01.DAT", "2"),
        ("examples/global-war/WAR01.DAT", "5"),
        ("examples/global-war/WAR02.REC", "1"),
        ("examples/global-war/WAR02.REC", "4"),
    ] {
        let first = tmp(&format!("played-{turns}-{}.DAT", input.len()));
        let again = tmp(&format!("again-{turns}-{}.DAT", input.len()));
        let _ = std::fs::remove_file(&first);
        let _ = std::fs::remove_file(&again);
        let (code, out1, err) = dip(&["war", "play", input, "-o", &first, "--turns", turns]);
        assert_eq!(code, 0, "{err}");
        assert!(out1.contains("to move"), "{out1}");
        // Read back, nothing played: the same player to move.
        let (code, out2, err) = dip(&["war", "play", &first, "-o", &again, "--turns", "0"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            to_move(&out1),
            to_move(&out2),
            "{input} --turns {turns}: {out1} / {out2}"
        );
        assert_eq!(
            std::fs::read(&first).unwrap().len(),
            std::fs::read(&again).unwrap().len()
        );
    }
}

#[test]
fn team_passwords_were_dropped_by_new_and_play() {
    let path = tmp("WAR05.DAT");
    let played = tmp("WAR05-played.DAT");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&played);
    let (code, _, err) = dip(&[
        "war",
        "new",
        "-o",
        &path,
        "--players",
        "Ann",
        "Bob",
        "Cid",
        "--teams",
        "--passwords",
        "red",
        "blue",
        "green",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    let passwords = |file: &str| {
        let (code, json, err) = dip(&["war", "show", file, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["team_passwords"].clone()
    };
    assert_eq!(passwords(&path), serde_json::json!(["red", "blue", "green"]));
    let (code, _, err) = dip(&["war", "play", &path, "-o", &played, "--turns", "2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(passwords(&played), serde_json::json!(["red", "blue", "green"]));
    // The sample REC's passwords survive play too.
    let rec = tmp("WAR02-played.DAT");
    let _ = std::fs::remove_file(&rec);
    let (code, _, err) = dip(&["war", "play", "examples/global-war/WAR02.REC", "-o", &rec]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(passwords(&rec), serde_json::json!(["FLYING", "CIRCUS", "TEATIME"]));
    // Passwords need a team game, three different ones.
    let other = tmp("WAR06.DAT");
    let (code, _, _) = dip(&[
        "war",
        "new",
        "-o",
        &other,
        "--players",
        "A",
        "B",
        "C",
        "--passwords",
        "x",
        "y",
        "z",
    ]);
    assert_eq!(code, 2);
    let (code, _, err) = dip(&[
        "war",
        "new",
        "-o",
        &other,
        "--players",
        "A",
        "B",
        "C",
        "--teams",
        "--passwords",
        "x",
        "X",
        "z",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--passwords"), "{err}");
    assert!(!std::path::Path::new(&other).exists());
}

#[test]
fn import_help_said_only_games_in_progress() {
    let (code, out, _) = dip(&["war", "import", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("or a DAT in sign-up"), "{out}");
    assert!(out.contains("A name ending in .DAT or .REC says which"), "{out}");
}

#[test]
fn show_left_the_armies_and_owner_notation_unexplained() {
    let (code, out, _) = dip(&["war", "show", "examples/global-war/WAR01.DAT"]);
    assert_eq!(code, 0);
    let legend = out
        .lines()
        .position(|l| l.starts_with("Countries as name armies:player"))
        .expect(&out);
    assert!(out.lines().nth(legend + 1).unwrap().contains("Alaska 3:1"), "{out}");
}

#[test]
fn play_printed_the_winners_as_a_debug_list() {
    // Hagar holds 41 countries with 10 armies each, Sgt. Fury one with 1.
    let mut dat = dip_war::DatFile::parse(include_bytes!("../../../examples/global-war/WAR01.DAT")).unwrap();
    dat.original = None;
    for (i, c) in dat.countries.iter_mut().enumerate() {
        *c = if i == 0 {
            dip_war::file::Country { armies: 1, owner: 2 }
        } else {
            dip_war::file::Country { armies: 10, owner: 1 }
        };
    }
    let path = tmp("WAR07.DAT");
    let out = tmp("WAR07-won.DAT");
    let _ = std::fs::remove_file(&out);
    std::fs::write(&path, dat.to_bytes()).unwrap();
    let (code, text, err) = dip(&["war", "play", &path, "-o", &out, "--turns", "10"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("Sgt. Fury (player 2) eliminated by Hagar T. Horrible (player 1)"),
        "{text}"
    );
    assert!(text.contains("won by Hagar T. Horrible (player 1)\n"), "{text}");
    assert!(!text.contains('['), "{text}");
}

#[test]
fn new_wrote_names_outside_code_page_437_as_question_marks_silently() {
    let path = tmp("WAR08.DAT");
    let _ = std::fs::remove_file(&path);
    let (code, _, err) = dip(&[
        "war",
        "new",
        "-o",
        &path,
        "--players",
        "Łukasz",
        "Björn",
        "Bartholomew.the.Great",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(r#"warning: player "Łukasz" is written "?ukasz" ("Ł" not in code page 437)"#),
        "{err}"
    );
    assert!(
        err.contains(r#"player "Bartholomew.the.Great" is written "Bartholomew.the.G" (at most 17 characters)"#),
        "{err}"
    );
    assert!(!err.contains("Björn"), "Björn is in code page 437: {err}");
    let (_, json, _) = dip(&["war", "show", &path, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["players"][0]["name"], "?ukasz");
    assert_eq!(v["players"][1]["name"], "Björn");
}

#[test]
fn a_seventh_player_was_an_unexpected_argument() {
    let path = tmp("seven.DAT");
    let mut args = vec!["war", "new", "-o", &path, "--players"];
    args.extend(["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]);
    let (code, _, err) = dip(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Global War takes 3 to 6 players, not 7"), "{err}");
    let (code, _, err) = dip(&["war", "new", "-o", &path, "--players", "Ann", "Bob"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Global War takes 3 to 6 players, not 2"), "{err}");
    assert!(!std::path::Path::new(&path).exists());
}
