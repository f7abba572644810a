//! Result tables: writing and reading back, and finished games through the
//! scoring systems into the Analyse language.

use dip_rating::analyse::{Interp, MemHost};
use dip_rating::results::{parse_table, write_table, DataPre, Date, Mode, RawGame, RawPlayer};
use dip_rating::scoring::{GameEnd, System};
use proptest::prelude::*;

fn game() -> impl Strategy<Value = RawGame> {
    (
        prop::option::of((1900i32..2100, 1u32..13, 1u32..29)),
        prop::sample::select(vec![100.0, 150.0, 80.0, 12.5]),
        prop::collection::vec("[a-z]{1,6}", 0..3),
        "[A-Za-z][A-Za-z ,.']{0,20}",
        prop::collection::vec(
            (
                "[A-Z][a-z]{0,8}( [A-Z][a-z]{0,8})?",
                prop::collection::vec(-50i32..100, 1..4),
            ),
            2..8,
        ),
    )
        .prop_map(|(date, factor, attrs, text, players)| {
            let mut seen = std::collections::HashSet::new();
            let players: Vec<RawPlayer> = players
                .into_iter()
                .filter(|(n, _)| seen.insert(n.to_uppercase()))
                .map(|(n, pts)| RawPlayer {
                    id: n.clone(),
                    name: n,
                    points: pts.iter().map(|&p| p as f64 / 4.0).collect(),
                    line: 0,
                })
                .collect();
            RawGame {
                file: String::new(),
                line: 0,
                title: String::new(),
                text: text.split_whitespace().collect::<Vec<_>>().join(" "),
                date: date.map(|(y, m, d)| Date { y, m, d }),
                factor,
                attributes: attrs.iter().map(|a| a.to_uppercase()).collect(),
                players,
            }
        })
}

proptest! {
    /// write_table then parse_table gives the same games (18XX mode).
    #[test]
    fn tables_round_trip(games in prop::collection::vec(game(), 1..5)) {
        let text = write_table(&games, '@');
        let back = parse_table("t", &text, '@', Mode::Multi, &DataPre::default()).unwrap();
        prop_assert_eq!(back.len(), games.len());
        for (a, b) in games.iter().zip(&back) {
            prop_assert_eq!(a.date, b.date);
            prop_assert_eq!(a.factor, b.factor);
            prop_assert_eq!(&a.attributes, &b.attributes);
            prop_assert_eq!(&a.text, &b.text);
            prop_assert_eq!(a.players.len(), b.players.len());
            for (p, q) in a.players.iter().zip(&b.players) {
                prop_assert_eq!(&p.name, &q.name);
                prop_assert_eq!(&p.id, &q.id);
                prop_assert_eq!(&p.points, &q.points);
            }
        }
    }
}

/// A finished game from a game record, scored with two systems, written as
/// a table and rated by a control file that reads the second column.
/// Regression: a SCANMODE the control file defines with the sign `@` lost
/// against the predefined 18XX mode with the same sign.
#[test]
fn game_record_to_analyse() {
    let end = GameEnd::standard(
        1907,
        &[
            ("Anna", 9, None),
            ("Bert", 7, None),
            ("Cora", 7, None),
            ("Dora", 4, None),
            ("Emil", 4, None),
            ("Fred", 3, None),
            ("Gina", 0, Some(1906)),
        ],
    );
    let raw = end.to_raw_game(
        "club game 1",
        Some(Date { y: 2024, m: 5, d: 1 }),
        &[System::DrawSize, System::CDiplo { solo: 100.0 }],
    );
    assert_eq!(raw.players[0].points, vec![100.0 / 6.0, 48.0]);
    let text = write_table(&[raw], '@');
    assert!(
        text.starts_with("@ 2024-05-01 club game 1\nAnna 16.666666666666668 48\n"),
        "{text}"
    );
    let ctl = "DEFINE SCANMODE rec
  MODE 18XX
  SIGN @
  READPOINTS P.2
END
SCANFILES
DEFINE PRINTGAME g
  PLAYER print('%s %g', NAME, P)
END
PRINTGAMES g
";
    let mut h = MemHost::default();
    h.files.insert("games.txt".into(), text);
    Interp::new(&mut h, vec!["games.txt".into()], false)
        .run("t.ctl", ctl)
        .unwrap();
    assert_eq!(
        h.stdout,
        "Anna 48\nBert 18.5\nCora 18.5\nDora 5\nEmil 5\nFred 4\nGina 1\n"
    );
}

/// Regression: a player named `A Nan` was written with an id `[A_Nan]`
/// because the writer took `Nan` for a number while the reader did not.
#[test]
fn name_ending_in_nan_round_trips() {
    let g = RawGame {
        file: String::new(),
        line: 0,
        title: String::new(),
        text: "a".into(),
        date: None,
        factor: 100.0,
        attributes: vec![],
        players: ["A Nan", "Bo Inf"]
            .iter()
            .map(|n| RawPlayer {
                name: n.to_string(),
                id: n.to_string(),
                points: vec![0.0],
                line: 0,
            })
            .collect(),
    };
    let text = write_table(&[g], '@');
    assert_eq!(text, "@ a\nA Nan 0\nBo Inf 0\n\n");
    let back = parse_table("t", &text, '@', Mode::Multi, &DataPre::default()).unwrap();
    assert_eq!(back[0].players[0].id, "A Nan");
    assert_eq!(back[0].players[1].id, "Bo Inf");
}
