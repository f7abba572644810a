//! WARxx.DAT and WARxx.REC: reading, writing byte for byte, errors.

use dip_war::daynum;
use dip_war::file::{parse_any, DatFile, Doing, GameEvent, Kind, RecFile, Status};
use dip_war::game::{Game, Options, Phase};
use dip_war::map::View;
use proptest::prelude::*;

const WAR01: &[u8] = include_bytes!("../../../examples/global-war/WAR01.DAT");
const WAR02: &[u8] = include_bytes!("../../../examples/global-war/WAR02.REC");
const WAR03: &[u8] = include_bytes!("../../../examples/global-war/WAR03.DAT");

#[test]
fn samples_round_trip_byte_for_byte() {
    for bytes in [WAR01, WAR03] {
        let d = DatFile::parse(bytes).unwrap();
        assert_eq!(d.to_bytes(), bytes);
        // Without the original lines, dip writes the same plain form.
        let plain = DatFile { original: None, ..d };
        assert_eq!(plain.to_bytes(), bytes);
    }
    let r = RecFile::parse(WAR02).unwrap();
    assert_eq!(r.to_bytes(), WAR02);
    assert_eq!(RecFile { original: None, ..r }.to_bytes(), WAR02);
}

#[test]
fn dos_formatting_is_kept() {
    // Turbo Pascal's reals, padded names, LF and CRLF mixed, a ^Z at the end.
    let text = String::from_utf8(WAR01.to_vec()).unwrap();
    let mut lines: Vec<String> = text.split("\r\n").map(String::from).collect();
    lines[1] = " 1.6716039000E+03".into();
    lines[2] = "Hagar T. Horrible".into();
    lines[8] = "Sgt. Fury        ".into();
    lines[39] = "  3".into();
    let mut odd = lines.join("\r\n").replacen("\r\n", "\n", 5);
    odd.push('\u{1a}');
    let bytes = odd.into_bytes();
    let d = DatFile::parse(&bytes).unwrap();
    assert_eq!(d.event_day, 1671.6039);
    assert_eq!(d.seats[1].name.as_deref(), Some("Sgt. Fury"));
    assert_eq!(d.to_bytes(), bytes);
    // A changed value is written plainly; the rest stays as it was.
    let mut d2 = d.clone();
    d2.countries[0].armies += 1;
    let out = d2.to_bytes();
    assert_eq!(
        DatFile::parse(&out).unwrap().countries[0].armies,
        d.countries[0].armies + 1
    );
    assert!(out.starts_with(b"101\n 1.6716039000E+03\n"));
    assert!(out.ends_with(b"\x1a"));
}

#[test]
fn code_page_437() {
    let r = RecFile::parse(WAR02).unwrap();
    assert_eq!(r.dat.seats[2].name.as_deref(), Some("Björn"));
    assert!(WAR02.windows(5).any(|w| w == b"Bj\x94rn"));
}

#[test]
fn the_samples_decoded() {
    let d = DatFile::parse(WAR01).unwrap();
    assert_eq!(d.event.code(), 101);
    assert!(d.event.hidden_names && !d.event.unlimited_fortifications);
    assert_eq!((d.event.kind, d.event.status), (Kind::Normal, Status::InProgress));
    assert_eq!(d.seats.iter().filter(|s| s.name.is_some()).count(), 4);
    assert_eq!(d.sets_turned_in, 3);
    let v = serde_json::to_value(d.view()).unwrap();
    assert_eq!(v["event_day"], "1989-07-30T14:29:37");
    assert_eq!(v["event"]["kind"], "normal");
    assert_eq!(v["event"]["status"], "in_progress");
    assert_eq!(v["event"]["players"], serde_json::Value::Null);
    assert_eq!(v["countries"].as_array().unwrap().len(), 42);
    assert_eq!(v["countries"][41]["name"], "Taimyr");
    assert_eq!(v["team_passwords"], serde_json::Value::Null);
    assert_eq!(v["recovery"], serde_json::Value::Null);
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 7);

    let r = RecFile::parse(WAR02).unwrap();
    assert_eq!(
        (r.player, r.doing, r.earned_commendation, r.map),
        (3, Doing::Attacking, true, View::Europe)
    );
    let v = serde_json::to_value(r.view()).unwrap();
    assert_eq!(v["event"]["kind"], "team");
    assert_eq!(v["event"]["unlimited_fortifications"], true);
    assert_eq!(v["team_passwords"], serde_json::json!(["FLYING", "CIRCUS", "TEATIME"]));
    assert_eq!(
        v["recovery"],
        serde_json::json!({"player": 3, "doing": "attacking", "earned_commendation": true, "armies_to_deploy": 0, "map": "Europe"})
    );

    let s = DatFile::parse(WAR03).unwrap();
    let v = serde_json::to_value(s.view()).unwrap();
    assert_eq!(v["event"]["status"], "signup");
    assert_eq!(v["event"]["players"], serde_json::json!({"min": 3, "max": 5}));
    assert_eq!(v["players"].as_array().unwrap().len(), 2);
    assert!(s.to_position().is_err());

    assert!(parse_any(WAR02).unwrap().1.is_some());
    assert!(parse_any(WAR01).unwrap().1.is_none());
}

#[test]
fn every_game_event() {
    let mut defined = 0;
    for code in -5..=2000i64 {
        let base = code.rem_euclid(100);
        let flags = code - base;
        let ok = (0..=1166).contains(&code)
            && [0, 100, 1000, 1100].contains(&flags)
            && [0, 1, 2, 3, 4, 5, 33, 34, 35, 36, 44, 45, 46, 55, 56, 66].contains(&base);
        match GameEvent::decode(code) {
            Some(e) => {
                assert!(ok, "{code} should be refused");
                assert_eq!(e.code(), code);
                assert_eq!(e.hidden_names, flags % 1000 == 100);
                assert_eq!(e.unlimited_fortifications, flags >= 1000);
                assert_eq!(
                    e.kind,
                    if (3..=5).contains(&base) {
                        Kind::Team
                    } else {
                        Kind::Normal
                    }
                );
                let status = match base {
                    1 | 4 => Status::InProgress,
                    2 | 5 => Status::Completed,
                    _ => Status::Signup,
                };
                assert_eq!(e.status, status);
                match e.players {
                    Some(r) => assert_eq!((r.min as i64, r.max as i64), (base / 10, base % 10)),
                    None => assert!(base <= 5),
                }
                defined += 1;
            }
            None => assert!(!ok, "{code} should be read"),
        }
    }
    assert_eq!(defined, 64);
    // A file with an undefined code says where.
    let bad = String::from_utf8(WAR01.to_vec()).unwrap().replacen("101", "107", 1);
    let e = DatFile::parse(bad.as_bytes()).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("107"));
}

#[test]
fn daynums() {
    assert_eq!(
        daynum::to_datetime(1671.6039).unwrap().to_string(),
        "1989-07-30T14:29:37"
    );
    let t = daynum::DateTime {
        year: 1989,
        month: 7,
        day: 30,
        hour: 14,
        minute: 29,
        second: 36,
    };
    assert!((daynum::from_datetime(t) - 1671.6039).abs() < 0.0001);
}

#[test]
fn bad_files_say_where() {
    let text = String::from_utf8(WAR01.to_vec()).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let with = |i: usize, v: &str| {
        let mut l = lines.clone();
        l[i] = v;
        DatFile::parse(l.join("\r\n").as_bytes()).unwrap_err()
    };
    assert_eq!(with(1, "yesterday").line, 2);
    assert_eq!(with(2, "A name far too long for Global War").line, 3);
    assert_eq!(with(3, "Y").line, 4);
    assert_eq!(with(5, "6").line, 6);
    assert_eq!(with(38, "-1").line, 39);
    assert_eq!(with(40, "7").line, 41);
    let e = with(122, "5"); // country 42's owner: player 5 is NONE
    assert_eq!(e.line, 123);
    assert!(e.message.contains("Taimyr"), "{}", e.message);
    let short = lines[..60].join("\r\n");
    assert_eq!(DatFile::parse(short.as_bytes()).unwrap_err().line, 61);
    let long = format!("{text}extra\r\n");
    assert_eq!(DatFile::parse(long.as_bytes()).unwrap_err().line, 127);
    // REC prefix lines.
    let rec = dip_war::cp437::decode(WAR02);
    let e = RecFile::parse(&dip_war::cp437::encode(&rec.replacen("3\r\n3\r\n", "3\r\n4\r\n", 1))).unwrap_err();
    assert_eq!(e.line, 2);
    // A bad line in the REC's game data counts the four prefix lines.
    let mut l: Vec<&str> = rec.split("\r\n").collect();
    l[4 + 1] = "x";
    assert_eq!(
        RecFile::parse(&dip_war::cp437::encode(&l.join("\r\n")))
            .unwrap_err()
            .line,
        6
    );
}

/// A bad line is quoted in part: a file of one 30 MB line gave a message
/// of 30 MB.
#[test]
fn a_long_bad_line_was_quoted_whole() {
    let text = String::from_utf8(WAR01.to_vec()).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let huge = "9".repeat(100_000) + "x";
    // Game_Event, Event_Day, a name, a vote, a count, an extra line.
    for i in [0, 1, 2, 3, 5, 126] {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        l[i] = huge.clone();
        let e = DatFile::parse(l.join("\r\n").as_bytes()).unwrap_err();
        assert_eq!(e.line, i + 1, "{}", &e.message[..200.min(e.message.len())]);
        assert!(e.message.len() < 300, "line {}: {} bytes", i + 1, e.message.len());
        assert!(
            e.message.contains("\"99999") && e.message.contains("… (100001 characters)"),
            "{}",
            e.message
        );
    }
    // One line and nothing else.
    let e = DatFile::parse(huge.as_bytes()).unwrap_err();
    assert!(e.message.len() < 300, "{} bytes", e.message.len());
    // A team password from a sign-up file.
    let long = vec!["red".to_string(), "x".repeat(100_000), "blue".to_string()];
    let (i, m) = dip_war::signup::check_passwords(&long).unwrap_err();
    assert_eq!(i, 1);
    assert!(m.len() < 300, "{} bytes", m.len());
    // A short line is quoted whole.
    assert!(with_line(&lines, 3, "Y").message.ends_with("found \"Y\""));
}

fn with_line(lines: &[&str], i: usize, v: &str) -> dip_war::FileError {
    let mut l = lines.to_vec();
    l[i] = v;
    DatFile::parse(l.join("\r\n").as_bytes()).unwrap_err()
}

/// The kind of file was guessed from its lines, and a wrong guess was an
/// error: a DAT whose Event_Day is a whole number 0 to 3 looks like a REC.
#[test]
fn a_dat_whose_event_day_is_a_small_whole_number_was_read_as_a_rec() {
    let text = String::from_utf8(WAR01.to_vec()).unwrap();
    let dat = text.replacen("\r\n1671.6039\r\n", "\r\n2\r\n", 1);
    assert_ne!(dat, text);
    let (d, rec) = parse_any(dat.as_bytes()).unwrap();
    assert!(rec.is_none());
    assert_eq!(d.event_day, 2.0);
    assert_eq!(d.to_bytes(), dat.as_bytes());
    let (_, rec) = dip_war::file::parse_named(dat.as_bytes(), Some("war01.dat")).unwrap();
    assert!(rec.is_none());
    // The name decides, so the errors are that kind's.
    let e = dip_war::file::parse_named(dat.as_bytes(), Some("WAR01.REC")).unwrap_err();
    assert_eq!(e.line, 1, "{}", e.message);
    assert!(e.message.starts_with("PlayerNumber"), "{}", e.message);
    let rec = dip_war::cp437::decode(WAR02).replacen("3\r\n3\r\n", "3\r\n9\r\n", 1);
    let e = dip_war::file::parse_named(&dip_war::cp437::encode(&rec), Some("WAR02.REC")).unwrap_err();
    assert_eq!(e.line, 2, "{}", e.message);
    assert!(e.message.starts_with("LastPlay"), "{}", e.message);
    // Without a name the guess (a DAT: line 2 is no LastPlay) gives its error.
    let e = parse_any(&dip_war::cp437::encode(&rec)).unwrap_err();
    assert_ne!(e.line, 2, "{}", e.message);
    // Any other name: guessed.
    assert!(dip_war::file::parse_named(WAR02, Some("war.txt")).unwrap().1.is_some());
    assert!(dip_war::file::parse_named(WAR02, None).unwrap().1.is_some());
}

#[test]
fn games_export_and_import() {
    let opts = Options {
        teams: true,
        hidden_names: true,
        unlimited_fortifications: true,
    };
    let seats = (1..=6).map(|n| (n, format!("Seat {n}"))).collect();
    let g = Game::new(opts, seats, 7).unwrap();
    let dat = DatFile::from_game(&g, 14_000.5, &[]);
    let bytes = dat.to_bytes();
    let back = DatFile::parse(&bytes).unwrap();
    assert_eq!(back.event.code(), 1104);
    assert_eq!(back.to_bytes(), bytes);
    let pos = back.to_position().unwrap();
    assert_eq!(pos.owner, g.pos.owner);
    assert_eq!(pos.armies, g.pos.armies);
    assert!(pos.options.teams && pos.options.hidden_names);
    let g2 = Game::from_position(pos, 1).unwrap();
    assert!(matches!(g2.pos.phase, Phase::Deploy { .. }));

    let rec = RecFile::from_game(&g, 14_000.5, &[], View::Asia);
    let rb = rec.to_bytes();
    let r2 = RecFile::parse(&rb).unwrap();
    assert_eq!(r2.to_bytes(), rb);
    let p = r2.to_position().unwrap();
    assert_eq!(p.current, g.pos.current);
    assert_eq!(p.phase, g.pos.phase);

    // The sample REC resumes player 3's attack, a commendation earned.
    let r = RecFile::parse(WAR02).unwrap();
    let p = r.to_position().unwrap();
    assert_eq!((p.current, p.phase.clone(), p.conquered), (3, Phase::Attack, true));
    let mut g = Game::from_position(p, 3).unwrap();
    g.apply(dip_war::Action::EndTurn).unwrap();
    assert_eq!(g.pos.player(3).unwrap().hand.total(), r.dat.seats[2].hand.total() + 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Mutated files: an error with a line in the file, or a file that
    /// writes back to the same bytes; never a panic.
    #[test]
    fn mutated_files_never_panic(which in 0usize..3, edits in prop::collection::vec((0usize..600, any::<u8>(), 0u8..4), 1..6)) {
        let mut bytes = [WAR01, WAR02, WAR03][which].to_vec();
        for (at, b, op) in edits {
            let at = at % (bytes.len() + 1);
            match op {
                0 if at < bytes.len() => bytes[at] = b,
                1 => bytes.insert(at, b),
                2 if at < bytes.len() => { bytes.remove(at); }
                _ => bytes.truncate(at),
            }
        }
        let total = bytes.split(|&b| b == b'\n').count() + 1;
        match DatFile::parse(&bytes) {
            Ok(d) => {
                prop_assert_eq!(d.to_bytes(), bytes.clone());
                let _ = d.to_position().map(|p| Game::from_position(p, 1));
                let _ = dip_war::svg::render(&dip_war::svg::Board::from_dat(&d), View::Europe, 1.0);
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= total, "line {} of {}", e.line, total),
        }
        match RecFile::parse(&bytes) {
            Ok(r) => {
                prop_assert_eq!(r.to_bytes(), bytes.clone());
                let _ = r.to_position().map(|p| Game::from_position(p, 1));
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= total),
        }
        let _ = parse_any(&bytes);
    }
}

/// A file with 4294967295 armies in a country was read: the seat's armies
/// summed to 51, and drawing the map panicked in a debug build. Counts
/// are now checked on read, naming the country.
#[test]
fn army_counts_that_overflow_were_read() {
    let d = DatFile::parse(WAR01).unwrap();
    for armies in [u32::MAX, dip_war::file::MAX_ARMIES + 1] {
        let mut big = DatFile {
            original: None,
            ..d.clone()
        };
        big.countries[0].armies = armies;
        let e = DatFile::parse(&big.to_bytes()).unwrap_err().to_string();
        assert!(e.contains("armies in") && e.contains("country 1"), "{e}");
    }
    let mut most = DatFile { original: None, ..d };
    most.countries[0].armies = dip_war::file::MAX_ARMIES;
    assert!(DatFile::parse(&most.to_bytes()).is_ok());
}

/// A name line's leading spaces were kept (` Ann` played as another name
/// than `Ann`); the spaces around a name are padding.
#[test]
fn leading_spaces_in_names_were_kept() {
    let text = std::str::from_utf8(include_bytes!("../../../examples/global-war/WAR01.DAT")).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[2] = format!("   {}  ", lines[2].trim());
    let bytes = changed.join("\r\n").into_bytes();
    let dat = dip_war::DatFile::parse(&bytes).unwrap();
    assert_eq!(dat.seats[0].name.as_deref(), Some(lines[2].trim()));
    let pos = dat.to_position().unwrap();
    assert_eq!(pos.player(1).unwrap().name, lines[2].trim());
    assert_eq!(dat.to_bytes(), bytes, "the line is still written back as it was");
}
