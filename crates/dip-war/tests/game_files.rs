//! Games written as WARxx.DAT/REC and read back (`dip_war::save`), in
//! every state a turn can be in, and the files of games in sign-up.

use dip_war::file::{DatFile, Kind, RecFile, Status};
use dip_war::game::{Action, Event, Game, Options, Phase};
use dip_war::game_file::{fits_a_file, last_moved, SignedUp, SignupGame};
use dip_war::map::COUNTRIES;
use dip_war::rng::Rng;
use dip_war::rules::Hand;
use dip_war::signup::Range;
use dip_war::{save, GameFile};

const WAR02: &[u8] = include_bytes!("../../../examples/global-war/WAR02.REC");
const WAR03: &[u8] = include_bytes!("../../../examples/global-war/WAR03.DAT");

fn opts() -> Options {
    Options {
        teams: false,
        hidden_names: false,
        unlimited_fortifications: false,
    }
}

fn seats(n: u8) -> Vec<(u8, String)> {
    (1..=n).map(|i| (i, format!("Player{i}"))).collect()
}

fn pw() -> Vec<String> {
    ["RED", "BLUE", "GREEN"].iter().map(|s| s.to_string()).collect()
}

/// Seat 1 holds everything but Argentina (seat 2) and E. Australia (seat
/// 3), with 10 armies in Brazil, attacking.
fn staged() -> Game {
    let mut g = Game::new(opts(), seats(3), 1).unwrap();
    for c in 0..COUNTRIES {
        g.pos.owner[c] = 1;
        g.pos.armies[c] = 1;
    }
    g.pos.owner[3] = 2;
    g.pos.owner[9] = 3;
    g.pos.armies[4] = 10;
    g.pos.armies[23] = 10;
    g.pos.current = 1;
    g.pos.phase = Phase::Attack;
    g.turn_start = g.pos.clone();
    g
}

/// Writes, reads back (byte for byte the same when written again) and
/// returns the file and the game a reader resumes.
fn round_trip(file: &GameFile) -> (GameFile, Game) {
    let bytes = file.to_bytes();
    let read = match file {
        GameFile::Dat(_) => GameFile::Dat(DatFile::parse(&bytes).unwrap()),
        GameFile::Rec(_) => GameFile::Rec(RecFile::parse(&bytes).unwrap()),
    };
    assert_eq!(read.to_bytes(), bytes);
    let pos = read
        .to_position()
        .unwrap_or_else(|e| panic!("line {}: {}", e.line, e.message));
    let game = Game::from_position(pos, 1).unwrap();
    (read, game)
}

#[test]
fn export_while_moving_in_could_not_be_read_back() {
    let mut g = staged();
    while g.pos.phase == Phase::Attack {
        g.apply(Action::Attack {
            from: 5,
            to: 4,
            dice: 3,
        })
        .unwrap();
    }
    let Phase::Occupy { min, .. } = g.pos.phase else {
        panic!("{:?}", g.pos.phase)
    };
    let file = save(&g, 14_000.5, &[]);
    assert_eq!(file.extension(), "REC");
    let (_, back) = round_trip(&file);
    // The least moved in, and the attack goes on, the commendation earned.
    assert_eq!(back.pos.armies[3], min);
    assert_eq!(back.pos.armies[4], g.pos.armies[4] - min);
    assert_eq!(back.pos.owner, g.pos.owner);
    assert_eq!((back.pos.phase.clone(), back.pos.conquered), (Phase::Attack, true));
}

#[test]
fn taken_commendations_above_five_made_unreadable_files() {
    // Seat 1 (2 Generals) takes seat 2's 4 Generals: 6 Generals.
    let mut g = staged();
    g.pos.players[0].hand = Hand {
        general: 2,
        king: 1,
        queen: 1,
    };
    g.pos.players[1].hand = Hand {
        general: 4,
        king: 0,
        queen: 0,
    };
    // A turn begun: its reinforcements all placed in Brazil.
    let armies = g.pos.reinforcements(1);
    g.pos.phase = Phase::Deploy {
        armies,
        resume_attack: false,
    };
    g.turn_start = g.pos.clone();
    g.apply(Action::Deploy { country: 5, armies }).unwrap();
    while g.pos.phase == Phase::Attack {
        g.apply(Action::Attack {
            from: 5,
            to: 4,
            dice: 3,
        })
        .unwrap();
    }
    assert_eq!(g.pos.player(1).unwrap().hand.general, 6);
    assert!(!fits_a_file(&g.pos));
    // Moving in, then turning in: the turn's start, which the file holds.
    for step in 0..2 {
        let file = save(&g, 14_000.5, &[]);
        assert_eq!(file.extension(), "DAT", "step {step}");
        let (read, back) = round_trip(&file);
        let GameFile::Dat(d) = read else { unreachable!() };
        assert_eq!(d.seats[0].hand.general, 2);
        assert_eq!(back.pos.owner, g.turn_start.owner);
        assert_eq!(back.pos.armies, g.turn_start.armies);
        assert_eq!(back.pos.current, 1);
        if let Phase::Occupy { max, .. } = g.pos.phase {
            g.apply(Action::MoveIn { armies: max }).unwrap();
            assert!(matches!(
                g.pos.phase,
                Phase::Deploy {
                    resume_attack: true,
                    ..
                }
            ));
        }
    }
    // Once turned in, the hand fits again: a REC, deploying.
    g.apply(Action::TurnIn {
        set: dip_war::rules::Set::Three(dip_war::rules::Commendation::General),
    })
    .unwrap();
    let file = save(&g, 14_000.5, &[]);
    assert_eq!(file.extension(), "REC");
    let (_, back) = round_trip(&file);
    assert_eq!(back.pos.player(1).unwrap().hand.general, 3);
    // Still 5 or more: the next set before any army is placed.
    assert!(matches!(back.pos.phase, Phase::Deploy { .. }));
    let mut back = back;
    assert!(back.apply(Action::Deploy { country: 5, armies: 1 }).is_err());
}

#[test]
fn commendation_earned_before_fortifying_was_lost_in_the_rec() {
    let mut g = staged();
    while g.pos.phase == Phase::Attack {
        g.apply(Action::Attack {
            from: 5,
            to: 4,
            dice: 3,
        })
        .unwrap();
    }
    g.apply(Action::MoveIn { armies: 3 }).unwrap();
    let before = g.pos.player(1).unwrap().hand.total();
    let ev = g.apply(Action::EndAttack).unwrap();
    assert!(matches!(ev[..], [Event::Commendation { player: 1, .. }]), "{ev:?}");
    assert_eq!(g.pos.player(1).unwrap().hand.total(), before + 1);
    let file = save(&g, 14_000.5, &[]);
    let (read, mut back) = round_trip(&file);
    let GameFile::Rec(r) = read else { panic!("a REC") };
    assert_eq!(r.last_play(), 2);
    assert_eq!(back.pos.player(1).unwrap().hand.total(), before + 1);
    // Not a second one at the turn's end.
    let ev = back.apply(Action::EndTurn).unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::Commendation { .. })));
    let ev = g.apply(Action::EndTurn).unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::Commendation { .. })));
}

#[test]
fn team_passwords_were_dropped_from_written_files() {
    let teams = Options { teams: true, ..opts() };
    let mut g = Game::new(teams, seats(6), 3).unwrap();
    let (read, _) = round_trip(&save(&g, 14_000.5, &pw()));
    let GameFile::Dat(d) = read else { panic!("a DAT") };
    assert_eq!(d.team_passwords, pw());
    assert_eq!(d.view().team_passwords, Some(pw()));
    // Mid-turn, a REC keeps them too.
    let c = (1..=42u8).find(|&c| g.pos.owner[c as usize - 1] == 1).unwrap();
    g.apply(Action::Deploy { country: c, armies: 1 }).unwrap();
    let (read, _) = round_trip(&save(&g, 14_000.5, &pw()));
    let GameFile::Rec(r) = read else { panic!("a REC") };
    assert_eq!(r.dat.team_passwords, pw());
    // A normal game's lines stay empty.
    let g = Game::new(opts(), seats(3), 3).unwrap();
    let GameFile::Dat(d) = save(&g, 14_000.5, &pw()) else {
        panic!()
    };
    assert_eq!(d.team_passwords, vec![String::new(); 3]);
}

#[test]
fn every_player_moved_at_the_same_moment_lost_the_turn() {
    // Between turns, a DAT gives the turn to the player to move, however
    // the seats and the eliminations fall.
    for (players, seed) in [(3u8, 1u64), (4, 2), (5, 3), (6, 4)] {
        let mut g = Game::new(opts(), seats(players), seed).unwrap();
        let mut rng = Rng::with_seed(seed + 100);
        let mut turns = 0;
        while !g.is_over() && turns < 400 {
            let Some(a) = dip_war::random::action(&g, &mut rng) else {
                break;
            };
            let Ok(ev) = g.apply(a) else { continue };
            if !ev.iter().any(|e| matches!(e, Event::TurnBegan { .. })) {
                continue;
            }
            turns += 1;
            let now = 14_000.123_456 + turns as f64;
            let days = last_moved(&g.pos, now);
            let file = save(&g, now, &[]);
            assert_eq!(file.extension(), "DAT");
            let (_, back) = round_trip(&file);
            assert_eq!(back.pos.current, g.pos.current, "turn {turns}: {days:?}");
            assert_eq!(back.pos.phase, g.pos.phase);
        }
    }
}

#[test]
fn every_state_of_random_games_exports_and_reads_back() {
    let (mut recs, mut moving_in, mut turn_start, mut games) = (0, 0, 0, 0);
    for seed in 0..4u64 {
        let players = 3 + seed as u8;
        let options = Options {
            teams: players == 6,
            hidden_names: seed % 3 == 0,
            unlimited_fortifications: seed % 2 == 1,
        };
        let mut g = Game::new(options, seats(players), seed).unwrap();
        let mut rng = Rng::with_seed(seed ^ 0xABCD);
        for step in 0..100_000 {
            let now = 14_000.5 + step as f64 * 0.001;
            let file = save(&g, now, &pw());
            let (read, back) = round_trip(&file);
            match &read {
                GameFile::Rec(r) => {
                    recs += 1;
                    assert!(g.turn_in_progress());
                    assert_eq!(back.pos.current, g.pos.current);
                    assert_eq!(back.pos.owner, g.pos.owner);
                    assert_eq!(r.player, g.pos.current);
                    if let Phase::Occupy { from, to, min, .. } = g.pos.phase {
                        moving_in += 1;
                        assert_eq!(back.pos.armies[to as usize - 1], min);
                        assert_eq!(
                            back.pos.armies[from as usize - 1],
                            g.pos.armies[from as usize - 1] - min
                        );
                    } else {
                        assert_eq!(back.pos.armies, g.pos.armies);
                        for (a, b) in back.pos.players.iter().zip(&g.pos.players) {
                            assert_eq!(a.hand, b.hand, "step {step}");
                        }
                    }
                }
                GameFile::Dat(d) if g.is_over() => {
                    assert_eq!(d.event.status, Status::Completed);
                    assert_eq!(back.pos.winners, g.pos.winners);
                }
                GameFile::Dat(d) if d.event.status == Status::Completed => {
                    // Moving in the least won the game.
                    let Phase::Occupy { min, .. } = g.pos.phase else {
                        panic!("completed at {:?}", g.pos.phase)
                    };
                    let mut won = g.clone();
                    won.apply(Action::MoveIn { armies: min }).unwrap();
                    assert!(won.is_over());
                    assert_eq!(back.pos.winners, won.pos.winners);
                }
                GameFile::Dat(_) => {
                    assert_eq!(back.pos.current, g.pos.current);
                    let at = if g.turn_in_progress() {
                        turn_start += 1;
                        &g.turn_start
                    } else {
                        &g.pos
                    };
                    assert_eq!((&back.pos.owner, &back.pos.armies), (&at.owner, &at.armies));
                    assert_eq!(back.pos.phase, at.phase);
                }
            }
            if g.pos.options.teams {
                let (GameFile::Dat(d) | GameFile::Rec(RecFile { dat: d, .. })) = &read;
                assert_eq!(d.event.kind, Kind::Team);
                assert_eq!(d.team_passwords, pw());
            }
            if g.is_over() {
                games += 1;
                break;
            }
            let Some(a) = dip_war::random::action(&g, &mut rng) else {
                break;
            };
            let _ = g.apply(a);
        }
    }
    assert_eq!(games, 4);
    assert!(
        recs > 1000 && moving_in > 100,
        "{recs} REC files, {moving_in} while moving in"
    );
    println!("{recs} REC files, {moving_in} while moving in, {turn_start} turn starts");
}

#[test]
fn rec_errors_gave_the_dat_lines_number() {
    let text = dip_war::cp437::decode(WAR02);
    let mut lines: Vec<&str> = text.split("\r\n").collect();
    // Line 50 of the REC (46 of its DAT data): Argentina's armies.
    lines[49] = "0";
    let r = RecFile::parse(&dip_war::cp437::encode(&lines.join("\r\n"))).unwrap();
    let e = r.to_position().unwrap_err();
    assert_eq!(e.line, 50, "{}", e.message);
    assert!(e.message.contains("Argentina"), "{}", e.message);
    // Line 51: Argentina's owner.
    lines[49] = "1";
    lines[50] = "0";
    let r = RecFile::parse(&dip_war::cp437::encode(&lines.join("\r\n"))).unwrap();
    assert_eq!(r.to_position().unwrap_err().line, 51);
}

#[test]
fn signup_files_could_not_be_read_as_games() {
    let d = DatFile::parse(WAR03).unwrap();
    let s = d.to_signup().unwrap();
    assert_eq!(s.range, Range { min: 3, max: 5 });
    assert!(s.options.hidden_names || !s.options.teams);
    let who: Vec<(u8, &str, bool)> = s.players.iter().map(|p| (p.seat, p.name.as_str(), p.vote)).collect();
    assert_eq!(who, vec![(1, "Hagar", true), (2, "Nick", false)]);
    assert_eq!(s.players[1].joined, 1710.3125);
    // Written back from the game: the same bytes.
    assert_eq!(DatFile::from_signup(&s).to_bytes(), WAR03);

    // A team game in sign-up, with its passwords.
    let team = SignupGame {
        range: dip_war::signup::ANY,
        options: Options {
            teams: true,
            hidden_names: true,
            unlimited_fortifications: true,
        },
        created: 14_000.25,
        players: vec![SignedUp {
            seat: 3,
            name: "Björn".into(),
            vote: true,
            joined: 14_000.5,
        }],
        passwords: pw(),
    };
    let bytes = DatFile::from_signup(&team).to_bytes();
    let back = DatFile::parse(&bytes).unwrap();
    assert_eq!(back.event.code(), 1103);
    assert_eq!(back.to_signup().unwrap(), team);

    // Refusals: a game in progress, too many players, missing passwords.
    let war01 = DatFile::parse(include_bytes!("../../../examples/global-war/WAR01.DAT")).unwrap();
    assert_eq!(war01.to_signup().unwrap_err().line, 1);
    let mut four = s.clone();
    four.range = Range { min: 3, max: 3 };
    for seat in 3..=4 {
        four.players.push(SignedUp {
            seat,
            name: format!("P{seat}"),
            vote: false,
            joined: 1710.5,
        });
    }
    let e = DatFile::parse(&DatFile::from_signup(&four).to_bytes())
        .unwrap()
        .to_signup()
        .unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("at most 3"), "{}", e.message);
    let mut no_pw = DatFile::parse(&bytes).unwrap();
    no_pw.team_passwords[1] = " ".into();
    let e = no_pw.to_signup().unwrap_err();
    assert_eq!(e.line, 125, "{}", e.message);
    // And a DAT in sign-up has no position to play.
    assert_eq!(d.to_position().unwrap_err().line, 1);
}

#[test]
fn a_game_resumed_from_a_rec_falls_back_to_that_rec() {
    // Resumed mid-attack from a REC, then 6 Generals taken: the file is
    // the REC the game was resumed from, not a DAT that would begin the
    // turn again (and give its reinforcements twice).
    let mut g = staged();
    g.pos.players[0].hand = Hand {
        general: 2,
        king: 0,
        queen: 0,
    };
    g.pos.players[1].hand = Hand {
        general: 4,
        king: 0,
        queen: 0,
    };
    let rec = RecFile::from_position(&g.pos, 14_000.5, &[], dip_war::map::View::Globe);
    let mut g = Game::from_position(RecFile::parse(&rec.to_bytes()).unwrap().to_position().unwrap(), 9).unwrap();
    assert!(g.turn_in_progress(), "resumed mid-turn");
    while g.pos.phase == Phase::Attack {
        g.apply(Action::Attack {
            from: 5,
            to: 4,
            dice: 3,
        })
        .unwrap();
    }
    assert!(!fits_a_file(&g.pos));
    let file = save(&g, 14_000.6, &[]);
    assert_eq!(file.extension(), "REC");
    let (_, back) = round_trip(&file);
    assert_eq!(back.pos.phase, Phase::Attack);
    assert_eq!(back.pos.armies, g.turn_start.armies);
}

/// A game resumed from a REC file of a player who had earned a commendation
/// (LastPlay 3) dealt that commendation when its turn timed out: the
/// rollback restored the REC's "earned" and the turn's end dealt it. A
/// turn that times out or is skipped deals none.
#[test]
fn a_timed_out_resumed_rec_turn_dealt_a_commendation() {
    let rec = RecFile::parse(WAR02).unwrap();
    assert!(rec.earned_commendation, "the sample REC earned one");
    for passed in [Action::TimeOut, Action::Skip] {
        let mut g = Game::from_position(rec.to_position().unwrap(), 3).unwrap();
        let seat = g.pos.current;
        let hand = g.pos.player(seat).unwrap().hand;
        let events = g.apply(passed).unwrap();
        assert!(
            !events.iter().any(|e| matches!(e, Event::Commendation { .. })),
            "{passed:?}: {events:?}"
        );
        assert_eq!(g.pos.player(seat).unwrap().hand, hand, "{passed:?}");
        assert_ne!(g.pos.current, seat);
        assert!(g.log.is_empty(), "no die thrown for a commendation");
    }
}

/// Exports wrote Event_Day as the export's time and every Player_Moved as
/// made-up steps before it, where the door's documentation says "The daynum
/// that Game_Event occurred" and "daynum that the player last took a turn".
#[test]
fn exports_wrote_event_day_and_player_moved_as_the_time_of_export() {
    // A file read: its days are kept, and the mover's is when he moved.
    let dat = DatFile::parse(include_bytes!("../../../examples/global-war/WAR01.DAT")).unwrap();
    let mut g = Game::from_position(dat.to_position().unwrap(), 5).unwrap();
    g.days = dip_war::days::Days::of_file(&dat);
    let seat = g.pos.current;
    let mut rng = Rng::with_seed(8);
    while g.pos.current == seat && !g.is_over() {
        let a = dip_war::random::action(&g, &mut rng).unwrap();
        let _ = g.apply_at(a, 14_000.25);
    }
    let now = 15_000.5;
    let out = match save(&g, now, &[]) {
        GameFile::Dat(d) => d,
        GameFile::Rec(r) => r.dat,
    };
    assert_eq!(
        out.event_day, dat.event_day,
        "Event_Day: when the game began, not the export"
    );
    // Turns go round the seats (3, then 4), where the file's days had
    // Sgt. Fury (2) next: the player to move alone is written a step
    // before the earliest other, so that a reader gives them the turn.
    assert_eq!((seat, g.pos.current), (3, 4));
    assert_eq!(out.seats[3].last_moved, 1671.2513);
    for (i, (was, is)) in dat.seats.iter().zip(&out.seats).enumerate() {
        if was.name.is_none() || i == 3 {
            continue;
        }
        let want = if i + 1 == seat as usize {
            14_000.25
        } else {
            was.last_moved
        };
        assert!(
            (is.last_moved - want).abs() < 1e-9,
            "seat {}: {} not {want}",
            i + 1,
            is.last_moved
        );
    }
    let (_, back) = round_trip(&GameFile::Dat(out));
    assert_eq!(
        back.pos.current, g.pos.current,
        "the reader still finds the player to move"
    );

    // A game begun at a day: Event_Day is its start, every Player_Moved too
    // until each moves; whole turns keep the reader's player to move.
    let mut g = Game::new(opts(), seats(4), 2).unwrap();
    g.began_at(14_100.0);
    let mut rng = Rng::with_seed(4);
    let mut day = 14_100.0;
    for _ in 0..2_000 {
        if g.is_over() {
            break;
        }
        let a = dip_war::random::action(&g, &mut rng).unwrap();
        day += 0.001;
        let turn = g.pos.turn;
        let _ = g.apply_at(a, day);
        if g.pos.turn != turn && !g.is_over() {
            let file = save(&g, 20_000.0, &[]);
            let GameFile::Dat(d) = &file else {
                panic!("between turns: a DAT")
            };
            assert_eq!(d.event_day, 14_100.0);
            assert!(
                d.seats.iter().all(|s| s.last_moved <= day + 1e-9),
                "no day after the last move"
            );
            assert_eq!(round_trip(&file).1.pos.current, g.pos.current);
        }
    }
}

/// Player_Moved days kept to the 8.64 s of the file's four decimals can
/// tie: the player to move is then written a step before the others, so
/// that a reader still gives them the turn.
#[test]
fn moves_in_the_same_tick_still_give_the_turn_to_the_player_to_move() {
    let mut g = Game::new(opts(), seats(3), 2).unwrap();
    g.began_at(14_100.0);
    for seat in [1u8, 2, 3] {
        g.days.moved(seat, 14_100.5);
    }
    g.pos.current = 3;
    let d = dip_war::game_file::moved_days(&g.pos, &g.days, 20_000.0);
    assert_eq!(d[..3], [14_100.5, 14_100.5, 14_100.499_9]);
}
