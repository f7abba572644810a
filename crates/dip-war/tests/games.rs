//! Rules and whole games played by the random player.

use dip_war::game::{Action, Event, Game, Options, Phase, RuleError};
use dip_war::map::{self, Continent, COUNTRIES};
use dip_war::rng::Rng;
use dip_war::rules::{self, Commendation, Hand, Set};

fn opts() -> Options {
    Options {
        teams: false,
        hidden_names: false,
        unlimited_fortifications: false,
    }
}

fn seats(n: u8) -> Vec<(u8, String)> {
    (1..=n).map(|i| (i, format!("P{i}"))).collect()
}

#[test]
fn the_map() {
    assert_eq!(map::name(1), Some("Afghanistan"));
    assert_eq!(map::name(42), Some("Taimyr"));
    assert_eq!(map::name(0), None);
    assert_eq!(map::name(43), None);
    let sizes: Vec<usize> = Continent::ALL.iter().map(|k| k.countries().count()).collect();
    assert_eq!(sizes, [9, 4, 7, 6, 12, 4]);
    for (a, b) in [
        ("Alaska", "Kamchatka"),
        ("Brazil", "W. Africa"),
        ("Siam", "Borneo"),
        ("Greenland", "England"),
        ("Mexico", "Venezuela"),
    ] {
        assert!(
            map::adjacent(map::by_name(a).unwrap(), map::by_name(b).unwrap()),
            "{a}–{b}"
        );
    }
    assert!(!map::adjacent(2, 19));
    // Every border once, none to itself, and the world is connected.
    for (i, &(a, b)) in map::BORDERS.iter().enumerate() {
        assert_ne!(a, b);
        assert!(!map::BORDERS[..i].contains(&(a, b)) && !map::BORDERS[..i].contains(&(b, a)));
    }
    let mut seen = 1u64;
    let mut stack = vec![1u8];
    while let Some(c) = stack.pop() {
        for n in map::neighbours(c) {
            if seen & 1 << (n - 1) == 0 {
                seen |= 1 << (n - 1);
                stack.push(n);
            }
        }
    }
    assert_eq!(seen.count_ones(), 42);
    for c in 1..=42u8 {
        assert!(map::neighbours(c).count() >= 2, "{}", map::name(c).unwrap());
    }
}

#[test]
fn dice_odds_by_enumeration() {
    // (attacker losses, defender losses, throws) of the 6^n throws.
    let (o, t) = rules::odds(3, 2);
    assert_eq!(t, 7776);
    assert_eq!(o, vec![(0, 2, 2890), (1, 1, 2611), (2, 0, 2275)]);
    assert_eq!(rules::odds(2, 2).0, vec![(0, 2, 295), (1, 1, 420), (2, 0, 581)]);
    assert_eq!(rules::odds(1, 2).0, vec![(0, 1, 55), (1, 0, 161)]);
    assert_eq!(rules::odds(3, 1).0, vec![(0, 1, 855), (1, 0, 441)]);
    assert_eq!(rules::odds(2, 1).0, vec![(0, 1, 125), (1, 0, 91)]);
    assert_eq!(rules::odds(1, 1).0, vec![(0, 1, 15), (1, 0, 21)]);
    assert_eq!(rules::battle(&[6, 1, 1], &[6, 5]), (2, 0));
    assert_eq!(rules::battle(&[6, 6], &[5]), (0, 1));
}

#[test]
fn numbers() {
    assert_eq!(
        [3, 4, 5, 6].map(|n| rules::starting_armies(n).unwrap()),
        [35, 30, 25, 20]
    );
    assert_eq!(rules::starting_armies(2), None);
    assert_eq!(
        [0, 1, 8, 9, 11, 12, 42].map(rules::country_armies),
        [3, 3, 3, 3, 3, 4, 14]
    );
    let values: Vec<u32> = (0..9).map(rules::set_value).collect();
    assert_eq!(values, [4, 6, 8, 10, 12, 15, 20, 25, 30]);
    assert_eq!(rules::set_value(u32::MAX), u32::MAX);
    let all = |k: Continent| k.countries().fold(0u64, |b, c| b | 1 << (c - 1));
    assert_eq!(rules::continent_armies(all(Continent::Asia)), 7);
    assert_eq!(
        rules::continent_armies(all(Continent::Australia) | all(Continent::SouthAmerica)),
        4
    );
    assert_eq!(rules::continent_armies(all(Continent::Europe) & !1 << 12), 0); // without France
    assert_eq!(rules::continent_armies(u64::MAX >> 22), 24);
    let mut h = Hand {
        general: 1,
        king: 1,
        queen: 3,
    };
    assert_eq!(h.sets(), vec![Set::Three(Commendation::Queen), Set::OneOfEach]);
    assert!(h.remove(Set::OneOfEach) && !h.remove(Set::OneOfEach));
    assert_eq!(
        h,
        Hand {
            general: 0,
            king: 0,
            queen: 2
        }
    );
}

/// A game with a hand-made position: seat 1 holds everything but Argentina
/// (seat 2) and E. Australia (seat 3).
fn staged(options: Options) -> Game {
    let mut g = Game::new(options, seats(3), 1).unwrap();
    for c in 0..COUNTRIES {
        g.pos.owner[c] = 1;
        g.pos.armies[c] = 1;
    }
    g.pos.owner[3] = 2; // Argentina
    g.pos.owner[9] = 3; // E. Australia
    g.pos.armies[4] = 10; // Brazil
    g.pos.armies[23] = 10; // New Guinea
    g.pos.current = 1;
    g.pos.phase = Phase::Attack;
    g
}

#[test]
fn reinforcements_with_continents() {
    let g = staged(opts());
    // 40 countries: 13; N. America 5, Europe 5, Africa 3, Asia 7.
    assert_eq!(g.pos.reinforcements(1), 13 + 5 + 5 + 3 + 7);
    assert_eq!(g.pos.reinforcements(2), 3);
}

#[test]
fn elimination_victory_and_commendations() {
    let mut g = staged(opts());
    g.pos.players[1].hand = Hand {
        general: 2,
        king: 1,
        queen: 0,
    };
    g.pos.players[0].hand = Hand {
        general: 1,
        king: 0,
        queen: 1,
    };
    refusals_change_nothing(&mut g);
    // Attack Argentina from Brazil until it falls.
    let events = attack_until_it_falls(&mut g, 5, 4);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Eliminated { player: 2, by: 1, .. })));
    assert!(!g.pos.player(2).unwrap().alive);
    commendations_taken_are_turned_in(&mut g);
    // Now E. Australia, from New Guinea: the last country, the game won.
    attack_until_it_falls(&mut g, 24, 10);
    let Phase::Occupy { min, .. } = g.pos.phase else {
        panic!()
    };
    let ev = g.apply(Action::MoveIn { armies: min }).unwrap();
    assert!(ev.contains(&Event::Won { players: vec![1] }));
    assert!(g.is_over());
    assert_eq!(g.apply(Action::EndTurn), Err(RuleError::GameOver));
}

/// Bad dice, a country not adjacent, a friendly one, a deployment out of
/// its phase: each refused, and the game as it was.
fn refusals_change_nothing(g: &mut Game) {
    let before = g.clone();
    assert!(matches!(
        g.apply(Action::Attack {
            from: 5,
            to: 4,
            dice: 4
        }),
        Err(RuleError::BadDice)
    ));
    assert!(matches!(
        g.apply(Action::Attack {
            from: 1,
            to: 4,
            dice: 1
        }),
        Err(RuleError::NotAdjacent(..))
    ));
    assert!(matches!(
        g.apply(Action::Attack {
            from: 5,
            to: 29,
            dice: 1
        }),
        Err(RuleError::Friendly(_))
    ));
    assert!(matches!(
        g.apply(Action::Deploy { country: 5, armies: 1 }),
        Err(RuleError::WrongPhase(_))
    ));
    assert_eq!(*g, before);
}

/// Attacks `to` from `from` with three dice until it falls; the events.
fn attack_until_it_falls(g: &mut Game, from: u8, to: u8) -> Vec<Event> {
    let mut events = Vec::new();
    while g.pos.phase == Phase::Attack {
        events.extend(g.apply(Action::Attack { from, to, dice: 3 }).unwrap());
    }
    events
}

/// Seat 2's commendations are seat 1's after the elimination: 5 in hand,
/// so after moving in a set must be turned in before deploying, and its
/// armies are deployed before the attack resumes.
fn commendations_taken_are_turned_in(g: &mut Game) {
    assert_eq!(
        g.pos.player(1).unwrap().hand,
        Hand {
            general: 3,
            king: 1,
            queen: 1
        }
    );
    let Phase::Occupy { min, max, .. } = g.pos.phase else {
        panic!("{:?}", g.pos.phase)
    };
    assert_eq!(min, 3);
    g.apply(Action::MoveIn { armies: max }).unwrap();
    assert_eq!(
        g.pos.phase,
        Phase::Deploy {
            armies: 0,
            resume_attack: true
        }
    );
    assert!(matches!(
        g.apply(Action::Deploy { country: 4, armies: 1 }),
        Err(RuleError::MustTurnIn(5))
    ));
    let sets = g.pos.sets_turned_in;
    g.apply(Action::TurnIn {
        set: Set::Three(Commendation::General),
    })
    .unwrap();
    assert_eq!(g.pos.sets_turned_in, sets + 1);
    assert_eq!(
        g.pos.phase,
        Phase::Deploy {
            armies: rules::set_value(sets),
            resume_attack: true
        }
    );
    g.apply(Action::Deploy {
        country: 24,
        armies: rules::set_value(sets),
    })
    .unwrap();
    assert_eq!(g.pos.phase, Phase::Attack);
}

#[test]
fn teams_win_together_and_do_not_fight() {
    let mut g = Game::new(Options { teams: true, ..opts() }, seats(6), 5).unwrap();
    for c in 0..COUNTRIES {
        g.pos.owner[c] = if c % 2 == 0 { 1 } else { 2 };
        g.pos.armies[c] = 3;
    }
    g.pos.owner[3] = 3; // Argentina: seat 3, team 2
    g.pos.armies[3] = 1;
    g.pos.owner[4] = 1; // Brazil
    g.pos.armies[4] = 30;
    g.pos.owner[28] = 2; // Peru: seat 2, seat 1's teammate
    for p in g.pos.players.iter_mut() {
        p.alive = p.number <= 3;
    }
    g.pos.current = 1;
    g.pos.phase = Phase::Attack;
    assert!(matches!(
        g.apply(Action::Attack {
            from: 5,
            to: 29,
            dice: 1
        }),
        Err(RuleError::Friendly(_))
    ));
    while g.pos.phase == Phase::Attack {
        g.apply(Action::Attack {
            from: 5,
            to: 4,
            dice: 3,
        })
        .unwrap();
    }
    let ev = g.apply(Action::MoveIn { armies: 3 }).unwrap();
    assert!(ev.contains(&Event::Won { players: vec![1, 2] }), "{ev:?}");
}

#[test]
fn fortifications_once_or_unlimited() {
    for unlimited in [false, true] {
        let mut g = staged(Options {
            unlimited_fortifications: unlimited,
            ..opts()
        });
        g.pos.armies[4] = 10;
        g.apply(Action::EndAttack).unwrap();
        g.apply(Action::Fortify {
            from: 5,
            to: 38,
            armies: 2,
        })
        .unwrap();
        if unlimited {
            g.apply(Action::Fortify {
                from: 5,
                to: 38,
                armies: 2,
            })
            .unwrap();
            assert_eq!(g.pos.armies[37], 5);
            g.apply(Action::EndTurn).unwrap();
        }
        assert_eq!(g.pos.current, 2);
        assert!(matches!(g.pos.phase, Phase::Deploy { armies: 3, .. }));
    }
}

#[test]
fn time_out_rolls_the_turn_back() {
    let mut g = Game::new(opts(), seats(4), 11).unwrap();
    let start = g.pos.clone();
    let mut rng = Rng::with_seed(3);
    while g.pos.current == start.current && g.pos.phase != Phase::Fortify {
        let a = dip_war::random::action(&g, &mut rng).unwrap();
        if matches!(a, Action::EndAttack | Action::EndTurn) {
            break;
        }
        let _ = g.apply(a);
    }
    g.apply(Action::TimeOut).unwrap();
    assert_eq!(g.pos.owner, start.owner);
    assert_eq!(g.pos.armies, start.armies);
    assert_ne!(g.pos.current, start.current);
    assert_eq!(g.turn_start, g.pos);
}

/// Whole games by the random player, with the invariants after every action.
fn play_checked(players: u8, options: Options, seed: u64) -> (u32, usize) {
    let mut g = Game::new(options, seats(players), seed).unwrap();
    let initial = g.clone();
    let start_total: u32 = g.pos.armies.iter().sum();
    assert_eq!(
        start_total,
        rules::starting_armies(players as usize).unwrap() * players as u32
    );
    let mut rng = Rng::with_seed(seed * 31 + 7);
    let mut actions = Vec::new();
    let mut total = start_total;
    for _ in 0..200_000 {
        let Some(a) = dip_war::random::action(&g, &mut rng) else {
            break;
        };
        let before = g.clone();
        let events = match g.apply(a) {
            Ok(e) => e,
            Err(_) => {
                assert_eq!(g, before, "a refused action changed the game");
                continue;
            }
        };
        actions.push(a);
        // Armies change only by deploying (added) and combat (lost).
        for e in &events {
            match e {
                Event::Deployed { armies, .. } => total += armies,
                Event::Battle {
                    attacker_lost,
                    defender_lost,
                    ..
                } => total -= attacker_lost + defender_lost,
                _ => {}
            }
        }
        if matches!(a, Action::TimeOut) {
            total = g.pos.armies.iter().sum();
        }
        assert_eq!(g.pos.armies.iter().sum::<u32>(), total);
        for c in 0..COUNTRIES {
            assert!(g.pos.armies[c] >= 1 || matches!(g.pos.phase, Phase::Occupy { to, .. } if to as usize == c + 1));
            assert!(g.pos.player(g.pos.owner[c]).is_some());
        }
        for p in &g.pos.players {
            assert_eq!(p.alive, g.pos.count(p.number) > 0, "seat {}", p.number);
        }
    }
    assert!(g.is_over(), "{players} players, seed {seed}: not over");
    let w = &g.pos.winners;
    assert!(!w.is_empty());
    assert!(g.pos.owner.iter().all(|o| w.contains(o)));
    // The same actions against the logged dice give the same game.
    let again = Game::replay(&initial, &g.log, &actions).unwrap();
    assert_eq!(again.pos, g.pos);
    assert_eq!(again.log, g.log);
    // And the same seeds give the same game.
    let mut h = initial.clone();
    let mut rng = Rng::with_seed(seed * 31 + 7);
    dip_war::random::play(&mut h, &mut rng, 200_000);
    assert_eq!(h.pos, g.pos);
    // Too few dice: an error, not a panic.
    if !g.log.is_empty() {
        assert!(Game::replay(&initial, &g.log[..g.log.len() - 1], &actions).is_err());
    }
    // The state survives serialisation.
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), g);
    (g.pos.turn, g.log.len())
}

#[test]
fn random_games_to_the_end() {
    for players in 3..=6u8 {
        for seed in 0..6 {
            let (turns, dice) = play_checked(players, opts(), seed);
            assert!(turns > players as u32 && dice > 0);
        }
    }
}

#[test]
fn random_games_with_options() {
    let all = Options {
        teams: false,
        hidden_names: true,
        unlimited_fortifications: true,
    };
    for seed in 0..4 {
        play_checked(5, all.clone(), seed);
        play_checked(6, Options { teams: true, ..opts() }, seed);
    }
}

#[test]
fn hidden_names() {
    let g = Game::new(
        Options {
            hidden_names: true,
            ..opts()
        },
        seats(3),
        1,
    )
    .unwrap();
    assert_eq!(g.pos.display_name(2, Some(1)), "Player 2");
    assert_eq!(g.pos.display_name(2, Some(2)), "P2");
    assert_eq!(g.pos.display_name(2, None), "P2");
}

#[test]
fn set_up_refusals() {
    assert!(Game::new(opts(), seats(2), 1).is_err());
    assert!(Game::new(opts(), vec![(1, "a".into()), (1, "b".into()), (2, "c".into())], 1).is_err());
    assert!(Game::new(Options { teams: true, ..opts() }, seats(4), 1).is_err());
    assert!(Game::new(
        Options { teams: true, ..opts() },
        vec![(1, "a".into()), (3, "b".into()), (5, "c".into())],
        1
    )
    .is_ok());
}

#[test]
fn the_map_draws() {
    let g = Game::new(opts(), seats(6), 2).unwrap();
    let b = dip_war::svg::Board::from_position(&g.pos, None);
    for v in map::View::ALL {
        let s = dip_war::svg::render(&b, v, 1.0);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        let shown = v.continent().map_or(42, |k| k.countries().count());
        assert!(shown <= s.matches("<circle").count());
        assert_eq!(map::View::parse(v.name()), Some(v));
        assert_eq!(map::View::from_code(v.code() as i64), Some(v));
    }
}

mod nonsense {
    use super::*;
    use proptest::prelude::*;

    fn action() -> impl Strategy<Value = Action> {
        let c = any::<u8>();
        let set = prop_oneof![
            Just(Set::OneOfEach),
            Just(Set::Three(Commendation::General)),
            Just(Set::Three(Commendation::King)),
            Just(Set::Three(Commendation::Queen)),
        ];
        prop_oneof![
            set.prop_map(|set| Action::TurnIn { set }),
            (c, 0u32..50).prop_map(|(country, armies)| Action::Deploy { country, armies }),
            (0u8..44, 0u8..44, any::<u8>()).prop_map(|(from, to, dice)| Action::Attack { from, to, dice }),
            (0u32..50).prop_map(|armies| Action::MoveIn { armies }),
            Just(Action::EndAttack),
            (c, c, any::<u32>()).prop_map(|(from, to, armies)| Action::Fortify { from, to, armies }),
            Just(Action::EndTurn),
            Just(Action::TimeOut),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any actions at all: never a panic; a refused one changes nothing.
        #[test]
        fn any_actions(seed in any::<u64>(), n in 3u8..=6, actions in prop::collection::vec(action(), 1..300)) {
            let mut g = Game::new(opts(), seats(n), seed).unwrap();
            for a in actions {
                let before = g.clone();
                if g.apply(a).is_err() {
                    prop_assert_eq!(&g, &before);
                }
                prop_assert!(g.pos.validate().is_ok());
            }
        }
    }
}
