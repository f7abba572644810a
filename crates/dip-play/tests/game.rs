//! The kernel's game as its users drive it: a power's orders read and
//! checked, lines for another power refused, phases played, stepping back
//! through the history and undoing that.

use dip_play::{Game, PlayOptions, Variants};
use dip_text::{Code, Fate};

fn standard() -> Game {
    Game::new(Variants::new().get("standard").unwrap())
}

#[test]
fn a_power_submits_its_own_lines_and_those_for_others_are_refused() {
    let mut game = standard();
    let france = game.map().find_power("France").unwrap();
    let s = game.submit(france, "A par-bur\nEngland: F lon-nth\nA mar-xyz\nA mun-ruh");
    assert_eq!(s.refused, vec![(2, "England: F lon-nth".to_string())]);
    // Read and checked at once, with DipWork's codes: a move to an unknown
    // province stands as a hold, an order for a unit France does not have
    // is deleted, the unordered French fleet gets a hold; no other power's
    // holds show.
    let line = |n: usize| s.check.lines.iter().find(|l| l.line == n).unwrap();
    assert_eq!(line(3).fate, Fate::Changed);
    assert!(line(3).notes.iter().any(|n| n.code == Code::MoveField));
    assert_eq!(line(4).fate, Fate::Deleted);
    assert!(line(4).notes.iter().any(|n| n.code == Code::ForeignUnit));
    let inserted: Vec<_> = s.check.lines.iter().filter(|l| l.fate == Fate::Inserted).collect();
    assert_eq!(inserted.len(), 1);
    assert!(inserted.iter().all(|l| l.order.is_some_and(|o| o.power == france)));
    assert!(inserted[0].notes.iter().any(|n| n.code == Code::MissingOrder));
    // A second submission replaces the first.
    game.submit(france, "A par-pic");
    assert_eq!(game.submissions().len(), 1);
    let played = game.process();
    assert!(played.outcome.orders().iter().any(|r| r.order.power == france));
    assert_eq!(game.state().phase.to_string(), "F1901M");
    assert!(game.submissions().is_empty());
}

#[test]
fn rewind_steps_back_and_one_undo_restores_what_was_cut() {
    let mut game = standard();
    let germany = game.map().find_power("Germany").unwrap();
    game.submit(germany, "A mun-bur");
    game.process();
    game.submit(germany, "A bur-mar");
    game.process();
    let before = game.to_json();
    assert_eq!(game.history().len(), 2);
    // Back to spring 1901 with its orders, changed, played again.
    assert!(game.rewind(0));
    assert_eq!(game.state().phase.to_string(), "S1901M");
    assert_eq!(game.submissions()[0].text, "A mun-bur");
    game.submit(germany, "A mun-ruh");
    game.process();
    let mun_ruh = game.state().clone();
    assert_ne!(game.to_json(), before);
    // Undo: the game as it was before the rewind.
    assert!(game.undo_rewind());
    assert_eq!(game.to_json(), before);
    assert!(!game.undo_rewind());
    assert!(!game.rewind(5));
    let ruh = game.map().find_province("ruh").unwrap();
    assert!(mun_ruh.unit(ruh).is_some());
}

#[test]
fn the_winterer_suggests_a_retreat_by_the_right_hand_rule_when_asked() {
    let variants = Variants::new();
    let loaded = variants.get("standard").unwrap();
    let map = loaded.map().clone();
    let text = "phase spring 1901 retreat\nunits\n  Austria: A vie\ndislodged\n  Austria: A bud from ser\n";
    let state = dip_text::parse_position(&map, text, "retreat").unwrap();
    for suggest in [false, true] {
        let mut game = Game::from_state(loaded.clone(), state.clone()).with_options(PlayOptions {
            suggest_retreats: suggest,
            ..PlayOptions::default()
        });
        let played = game.process().clone();
        let units = game.state().units().count();
        if suggest {
            assert_eq!(played.suggested.len(), 1, "{:?}", played.suggested);
            assert!(
                played.suggested[0].contains("suggested by the right-hand rule"),
                "{:?}",
                played.suggested
            );
            assert_eq!(units, 2);
        } else {
            assert!(played.suggested.is_empty());
            assert_eq!(units, 1);
        }
    }
}

#[test]
fn a_game_edited_between_phases_is_stored_with_its_edit() {
    let variants = Variants::new();
    let mut game = Game::new(variants.get("standard").unwrap());
    game.process();
    let mut state = game.state().clone();
    let lon = game.map().find_province("lon").unwrap();
    state.remove(lon);
    game.set_state(state.clone());
    game.process();
    let back = Game::from_json(&variants, &game.to_json()).unwrap();
    assert_eq!(back.history()[1].state, state);
    assert_eq!(back.state(), game.state());
}

#[test]
fn orders_adjudicated_as_read_are_each_judged_by_the_adjudicator() {
    // `A par-mun` cannot be given (Munich is no neighbour of Paris), and
    // `A ber-kie` is Germany's unit ordered by France. The parser makes
    // the first a hold and deletes the second; as read, the adjudicator
    // reports each, illegal, with its reason.
    for as_read in [false, true] {
        let mut game = standard().with_options(PlayOptions {
            as_read,
            ..PlayOptions::default()
        });
        let france = game.map().find_power("France").unwrap();
        let s = game.submit_any("France: A par-mun\nFrance: A ber-kie\nFrance: F bre-mao");
        // The parser's check is made and reported either way.
        assert_eq!(s.check.lines[0].fate, Fate::Changed);
        assert_eq!(s.check.lines[1].fate, Fate::Deleted);
        let played = game.process().clone();
        let reports = played.outcome.orders();
        let of = |p: &str| {
            let p = game.map().find_province(p).unwrap();
            reports
                .iter()
                .find(|r| r.order.power == france && r.order.unit().is_some_and(|u| u.province == p))
        };
        if as_read {
            assert!(matches!(of("par").unwrap().verdict, dip_core::Verdict::Illegal(_)));
            assert_eq!(
                of("ber").unwrap().verdict,
                dip_core::Verdict::Illegal(dip_core::Illegal::ForeignUnit)
            );
        } else {
            assert!(matches!(of("par").unwrap().order.kind, dip_core::OrderKind::Hold(_)));
            assert!(of("ber").is_none());
        }
        assert!(of("bre").is_some_and(|r| r.verdict.succeeded()));
        // The option is part of the game written down.
        let back = Game::from_json(&Variants::new(), &game.to_json()).unwrap();
        assert_eq!(back.options().as_read, as_read);
    }
}

#[test]
fn orders_submitted_before_the_rules_change_are_checked_under_the_new_rules() {
    // Germany's army ordered by France: deleted, unless proxy orders are
    // allowed. The phase reads the check its one submission had, so that
    // check must follow the rules the game is played by.
    let mut game = standard();
    game.submit_any("France: A ber-kie");
    assert_eq!(game.submissions()[0].check.lines[0].fate, Fate::Deleted);
    let rules = dip_core::Ruleset {
        proxy_orders: true,
        ..*game.rules()
    };
    let mut game = game.with_rules(rules);
    assert_ne!(game.submissions()[0].check.lines[0].fate, Fate::Deleted);
    let played = game.process().clone();
    assert_ne!(played.check.lines[0].fate, Fate::Deleted);
    let kie = game.map().find_province("kie").unwrap();
    assert!(game.state().unit(kie).is_some(), "the army moved by proxy");
}
