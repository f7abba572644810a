//! Whole-engine checks on the standard map: retreat suggestions, phase
//! progression, victory, and the position format.

use dip_core::{game, retreat, Dislodged, Order, OrderKind, Phase, PhaseKind, Season, State, Unit, UnitRef};
use dip_text::{format_position, parse_order, parse_position};

fn std_variant() -> dip_variants::Variant {
    dip_variants::standard()
}

fn p(map: &dip_core::Map, name: &str) -> dip_core::ProvinceId {
    map.find_province(name).unwrap_or_else(|| panic!("no province {name}"))
}

fn army(map: &dip_core::Map, power: &str, at: &str) -> Unit {
    Unit {
        power: map.find_power(power).unwrap(),
        kind: map.find_unit_type("A").unwrap(),
        region: map.main_region(p(map, at)),
    }
}

#[test]
fn right_hand_rule_suggests_next_free_neighbour_clockwise() {
    let v = std_variant();
    let map = &v.map;
    let mut state = State::empty(map, Phase::new(1901, Season::Spring, PhaseKind::Retreat));
    let ring: Vec<&str> = map
        .clockwise(p(map, "mun"))
        .iter()
        .map(|&q| map.province(q).abbr.as_str())
        .collect();
    // Munich's neighbours, clockwise from Burgundy (west) over the north.
    let start = ring.iter().position(|&n| n == "bur").unwrap();
    let rotated: Vec<&str> = ring[start..].iter().chain(&ring[..start]).copied().collect();
    assert_eq!(rotated, ["bur", "ruh", "kie", "ber", "sil", "boh", "tyr"]);
    state.place(map, army(map, "France", "bur"));
    let d = Dislodged {
        unit: army(map, "Germany", "mun"),
        attacker_from: p(map, "bur"),
        by_convoy: false,
    };
    state.set_dislodged(map, d);
    let s = retreat::suggested_retreat(map, &state, &v.rules, &d).unwrap();
    assert_eq!(map.region_name(s), "ruh");
    // Ruhr taken: the next one clockwise.
    state.place(map, army(map, "France", "ruh"));
    let s = retreat::suggested_retreat(map, &state, &v.rules, &d).unwrap();
    assert_eq!(map.region_name(s), "kie");
    // Kiel closed by a standoff: Berlin.
    state.standoffs.insert(p(map, "kie").index());
    let s = retreat::suggested_retreat(map, &state, &v.rules, &d).unwrap();
    assert_eq!(map.region_name(s), "ber");
}

#[test]
fn right_hand_rule_after_a_convoyed_attack_still_suggests() {
    let v = std_variant();
    let map = &v.map;
    let mut state = State::empty(map, Phase::new(1901, Season::Spring, PhaseKind::Retreat));
    state.place(map, army(map, "England", "bel"));
    let d = Dislodged {
        unit: army(map, "France", "bel"),
        attacker_from: p(map, "lon"),
        by_convoy: true,
    };
    state.set_dislodged(map, d);
    let s = retreat::suggested_retreat(map, &state, &v.rules, &d);
    assert!(s.is_some(), "a suggestion is offered after a convoyed attack too");
}

fn play(v: &dip_variants::Variant, state: &State, lines: &[&str]) -> State {
    let orders: Vec<Order> = lines.iter().map(|l| parse_order(&v.map, l, None).unwrap()).collect();
    let outcome = game::adjudicate(&v.map, state, &orders, &v.rules);
    game::advance(&v.map, state, &outcome)
}

#[test]
fn seasons_and_years_advance_and_centres_change_after_fall() {
    let v = std_variant();
    let map = &v.map;
    let s1 = play(&v, &v.start, &["France: A par - bur", "Germany: A mun - ruh"]);
    assert_eq!(s1.phase, Phase::new(1901, Season::Fall, PhaseKind::Movement));
    assert_eq!(s1.owner(p(map, "bel")), None);
    let s2 = play(&v, &s1, &["Germany: A ruh - bel", "France: A bur - mun"]);
    // Fall: Belgium and Munich change hands, Germany and France adjust.
    assert_eq!(s2.phase, Phase::new(1901, Season::Fall, PhaseKind::Adjustment));
    assert_eq!(s2.owner(p(map, "bel")), map.find_power("Germany"));
    assert_eq!(s2.owner(p(map, "mun")), map.find_power("France"));
    let s3 = play(&v, &s2, &["France: build A par", "Germany: waive"]);
    assert_eq!(s3.phase, Phase::new(1902, Season::Spring, PhaseKind::Movement));
    assert!(s3.unit(p(map, "par")).is_some());
}

#[test]
fn no_adjustment_phase_when_nobody_can_adjust() {
    let v = std_variant();
    let s1 = play(&v, &v.start, &[]);
    let s2 = play(&v, &s1, &[]);
    assert_eq!(s2.phase, Phase::new(1902, Season::Spring, PhaseKind::Movement));
}

#[test]
fn retreat_phase_follows_a_dislodgement_and_missing_retreats_disband() {
    let v = std_variant();
    let map = &v.map;
    let text = "phase spring 1901 movement\nunits\n  Germany: A mun\n  France: A bur\n  France: A ruh\n";
    let state = parse_position(map, text, "t").unwrap();
    let s1 = play(&v, &state, &["France: A bur - mun", "France: A ruh S A bur - mun"]);
    assert_eq!(s1.phase.kind, PhaseKind::Retreat);
    assert!(s1.dislodged(p(map, "mun")).is_some());
    let s2 = play(&v, &s1, &[]);
    assert_eq!(s2.phase, Phase::new(1901, Season::Fall, PhaseKind::Movement));
    assert!(s2.units().all(|(_, u)| u.power != map.find_power("Germany").unwrap()));
}

#[test]
fn victory_by_centre_count() {
    let v = std_variant();
    let map = &v.map;
    let mut state = v.start.clone();
    assert_eq!(game::winner(map, &state), None);
    let france = map.find_power("France").unwrap();
    for &sc in map.supply_centers().iter().take(18) {
        state.set_owner(sc, Some(france));
    }
    assert_eq!(game::winner(map, &state), Some(france));
    assert_eq!(map.victory_centers(), 18);
}

#[test]
fn position_text_round_trips() {
    let v = std_variant();
    let map = &v.map;
    let text = format_position(map, &v.start);
    assert_eq!(parse_position(map, &text, "start").unwrap(), v.start);
    let mut state = State::empty(map, Phase::new(1903, Season::Fall, PhaseKind::Retreat));
    state.place(map, army(map, "England", "bel"));
    state.set_dislodged(
        map,
        Dislodged {
            unit: army(map, "France", "bel"),
            attacker_from: p(map, "lon"),
            by_convoy: true,
        },
    );
    state.standoffs.insert(p(map, "hol").index());
    state.set_owner(p(map, "bel"), map.find_power("England"));
    let text = format_position(map, &state);
    assert_eq!(parse_position(map, &text, "x").unwrap(), state);
}

#[test]
fn position_errors_name_file_and_line() {
    let v = std_variant();
    let map = &v.map;
    let e = parse_position(map, "phase spring 1901 movement\nunits\n  England: F xyz\n", "g.txt").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("g.txt", 3));
    let e = parse_position(map, "units\n", "g.txt").unwrap_err();
    assert_eq!(e.line, 1);
    let e = parse_position(
        map,
        "phase spring 1901 movement\nunits\n  England: A lon\n  France: A lon\n",
        "g",
    )
    .unwrap_err();
    assert_eq!(e.line, 4);
}

#[test]
fn illegal_orders_are_typed_not_panics() {
    let v = std_variant();
    let map = &v.map;
    let fra = map.find_power("France").unwrap();
    let orders = [
        Order::new(fra, OrderKind::Hold(UnitRef::new(None, p(map, "lon")))),
        Order::new(fra, OrderKind::Hold(UnitRef::new(None, p(map, "nth")))),
        parse_order(map, "France: A par - mos", None).unwrap(),
        parse_order(map, "France: F bre - par", None).unwrap(),
        parse_order(map, "France: A mar S A par - lon", None).unwrap(),
    ];
    let out = game::adjudicate(map, &v.start, &orders, &v.rules);
    use dip_core::{Illegal, Verdict};
    let verdicts: Vec<Verdict> = out.orders().iter().map(|r| r.verdict).collect();
    assert_eq!(
        verdicts,
        [
            Verdict::Illegal(Illegal::ForeignUnit),
            Verdict::Illegal(Illegal::NoSuchUnit),
            Verdict::Illegal(Illegal::Unreachable),
            Verdict::Illegal(Illegal::Unreachable),
            Verdict::Illegal(Illegal::CannotSupport),
        ]
    );
}

/// A dislodged unit with nowhere to go was given a retreat phase of its
/// own; it is disbanded at once and the game goes on (found by replaying
/// MILA's games).
#[test]
fn retreat_phase_without_choices_is_skipped() {
    let v = std_variant();
    let map = &v.map;
    let text = "phase spring 1901 movement\nunits\n  Turkey: F rum\n  Turkey: F bul/sc\n  Russia: F bla\n  Austria: A ukr\n  Austria: A sev\n  Austria: A ser\n  Austria: A gal\n";
    let state = parse_position(map, text, "t").unwrap();
    let s1 = play(&v, &state, &["Austria: A ukr - rum", "Austria: A sev S A ukr - rum"]);
    assert_eq!(s1.phase, Phase::new(1901, Season::Fall, PhaseKind::Movement));
    assert!(s1.all_dislodged().next().is_none());
    assert_eq!(s1.unit(p(map, "rum")).map(|u| u.power), map.find_power("Austria"));
}
