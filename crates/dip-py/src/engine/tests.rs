//! The engine's own tests (MILA's behaviour on small positions).

use super::*;
use dip_core::PhaseKind;

fn game() -> Game {
    Game::new(variant("standard").unwrap())
}

fn power(g: &Game, name: &str) -> PowerId {
    g.power(name).unwrap()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn results(g: &Game, unit: &str) -> Vec<&'static str> {
    g.last_results()
        .iter()
        .find(|(u, _)| u == unit)
        .map(|(_, r)| r.to_vec())
        .unwrap_or_default()
}

#[test]
fn orders_are_stored_in_mila_syntax() {
    let mut g = game();
    let eng = power(&g, "ENGLAND");
    g.set_orders(eng, &strings(&["LON H", "F edi - nth", "A LVP - YOR"]), true);
    assert_eq!(g.orders(eng), ["F LON H", "F EDI - NTH", "A LVP - YOR"]);
}

#[test]
fn an_order_names_its_location_first() {
    let v = variant("standard").unwrap();
    let at = |name: &str| v.locs.iter().position(|l| l == name);
    assert_eq!(v.order_loc("A PAR - BUR"), at("PAR"));
    assert_eq!(v.order_loc("F STP/SC S A MOS - FIN"), at("STP/SC"));
    assert_eq!(v.order_loc("F NTH C A LON - NWY"), at("NTH"));
    assert_eq!(v.order_loc("WAIVE"), None);
    assert_eq!(v.order_loc("A XYZ H"), None);
}

#[test]
fn orders_given_by_number_were_filed_as_by_text() {
    let mut by_text = game();
    let mut by_number = game();
    let fra = power(&by_text, "FRANCE");
    let texts = ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"];
    by_text.possible();
    by_text.set_orders(fra, &texts, true);
    by_number.possible();
    let known: Vec<u32> = {
        let mut table = by_number.v.orders.lock().unwrap();
        texts.iter().map(|t| table.find(by_number.v, t).unwrap().0).collect()
    };
    by_number.set_orders_known(fra, &texts, &known, true);
    assert_eq!(by_text.orders(fra), by_number.orders(fra));
    by_text.process();
    by_number.process();
    assert_eq!(by_text.units(fra), by_number.units(fra));
}

#[test]
fn unknown_power_is_named_in_the_error() {
    let g = game();
    let e = g.power("NARNIA").unwrap_err();
    assert!(e.contains("NARNIA") && e.contains("FRANCE"), "{e}");
}

#[test]
fn illegal_order_is_refused_with_the_reason() {
    let mut g = game();
    let fra = power(&g, "FRANCE");
    g.set_orders(fra, &strings(&["A PAR - MUN"]), true);
    assert!(g.orders(fra).is_empty());
    assert!(g.errors[0].contains("A PAR - MUN"), "{:?}", g.errors);
}

#[test]
fn standoff_is_labelled_bounce_and_units_stay() {
    let mut g = game();
    let (fra, ger) = (power(&g, "FRANCE"), power(&g, "GERMANY"));
    g.set_orders(fra, &strings(&["A PAR - BUR"]), true);
    g.set_orders(ger, &strings(&["A MUN - BUR"]), true);
    g.process();
    assert_eq!(results(&g, "A PAR"), [BOUNCE]);
    assert_eq!(results(&g, "A MUN"), [BOUNCE]);
    assert!(g.units(fra).contains(&"A PAR".to_string()));
    assert_eq!(g.phase_name(), "F1901M");
}

#[test]
fn support_for_dislodging_own_unit_is_void() {
    let mut g = game();
    let ger = power(&g, "GERMANY");
    g.clear_units(None);
    g.set_units(ger, &strings(&["A BER", "F KIE", "A MUN"]), false);
    g.set_orders(ger, &strings(&["A BER H", "F KIE - BER", "A MUN S F KIE - BER"]), true);
    g.process();
    assert_eq!(results(&g, "A MUN"), [VOID]);
    assert_eq!(results(&g, "F KIE"), [BOUNCE]);
}

#[test]
fn every_listed_order_is_accepted_by_set_orders() {
    let mut rng = dip_core::random::Rng::with_seed(11);
    let mut g = game();
    for _ in 0..30 {
        let possible = g.possible();
        let powers: Vec<PowerId> = g.map().power_ids().collect();
        for (i, _) in g.v.locs.iter().enumerate() {
            for text in possible.orders(g.v, i) {
                let text = text.as_str();
                let Some(o) = g.read_mila(text, PowerId(0)) else {
                    panic!("cannot read `{text}`");
                };
                let Some(u) = o.unit() else { continue };
                let owner = match g.state.phase.kind {
                    PhaseKind::Retreat => g.state.dislodged(u.province).map(|d| d.unit.power),
                    PhaseKind::Adjustment => powers.iter().copied().find(|&p| {
                        dip_core::legal::adjustment_orders(g.map(), &g.state, p)
                            .iter()
                            .any(|x| x.unit().map(|y| y.province) == Some(u.province))
                    }),
                    PhaseKind::Movement => g.state.unit(u.province).map(|x| x.power),
                };
                let mut h = g.clone();
                h.set_orders(owner.unwrap(), &[text.to_string()], true);
                assert!(
                    h.errors.is_empty(),
                    "`{text}` refused in {}: {:?}",
                    g.phase_name(),
                    h.errors
                );
            }
        }
        for o in dip_core::random::random_orders(g.map(), &g.state, &g.rules, &mut rng) {
            let text = g.order_text(&o);
            g.set_orders(o.power, &[text], true);
        }
        g.process();
    }
}

#[test]
fn every_map_was_drawn_after_2000_whatever_its_first_year() {
    // MILA draws in the winter of the 100th year counted from the
    // map's first year; dip drew after 2000 on every map.
    for (name, first) in [
        ("standard", 1901),
        ("ancmed", 1),
        ("modern", 1994),
        ("pure", 1901),
        ("standard_fleet_rome", 1901),
        ("colonial", 1870),
        ("empire", 1999),
        ("world", 2000),
    ] {
        let mut g = Game::new(variant(name).unwrap());
        assert_eq!(g.first_year(), first, "{name}");
        let last = first + 99;
        g.set_phase(&format!("F{:04}M", last - 1)).unwrap();
        g.process();
        assert!(!g.done, "{name} ended after {}", last - 1);
        g.set_phase(&format!("F{last:04}M")).unwrap();
        g.process();
        assert!(g.done, "{name} went on after {last}");
        let winter = format!("W{last:04}A");
        assert_eq!(g.outcome[0], winter, "{name}");
        assert_eq!(
            g.history.last().map(|r| r.name.as_str()),
            Some(winter.as_str()),
            "{name}"
        );
        assert!(g.outcome.len() > 1, "{name}: no power left in the draw");
    }
}

#[test]
fn ancmed_phases_were_named_without_four_digit_years() {
    let mut g = Game::new(variant("ancmed").unwrap());
    assert_eq!(g.phase_name(), "S0001M");
    g.process();
    assert_eq!(g.phase_name(), "F0001M");
    assert_eq!(g.history[0].name, "S0001M");
    // Both spellings are read.
    g.set_phase("S12M").unwrap();
    assert_eq!(g.phase_name(), "S0012M");
    g.set_phase("F0003R").unwrap();
    assert_eq!(g.phase_name(), "F0003R");
    assert_eq!(long_phase(&g.state.phase), "FALL 3 RETREATS");
    g.set_phase("WINTER 7 ADJUSTMENTS").unwrap();
    assert_eq!(g.phase_name(), "W0007A");
}

/// France's army in Burgundy dislodged from Munich, with a standoff in
/// Picardy: it may retreat to Gascony and Marseilles only.
fn burgundy_dislodged() -> Game {
    let mut g = game();
    g.clear_units(None);
    let (fra, ger, eng) = (power(&g, "FRANCE"), power(&g, "GERMANY"), power(&g, "ENGLAND"));
    g.set_units(fra, &strings(&["A BUR", "A PAR"]), false);
    g.set_units(ger, &strings(&["A MUN", "A RUH"]), false);
    g.set_units(eng, &strings(&["A BEL"]), false);
    g.set_orders(fra, &strings(&["A BUR H", "A PAR - PIC"]), true);
    g.set_orders(ger, &strings(&["A MUN - BUR", "A RUH S A MUN - BUR"]), true);
    g.set_orders(eng, &strings(&["A BEL - PIC"]), true);
    g.process();
    assert_eq!(g.phase_name(), "S1901R");
    g
}

#[test]
fn retreats_restored_from_a_state_opened_the_attackers_origin_and_standoffs() {
    let g = burgundy_dislodged();
    let fra = power(&g, "FRANCE");
    let allowed = g.retreats(fra);
    assert_eq!(allowed, [("A BUR".to_string(), strings(&["GAS", "MAR"]))]);
    // The position as a state holds it: units set again, then the lists.
    let mut h = game();
    h.set_phase("S1901R").unwrap();
    h.clear_units(None);
    for p in g.map().power_ids() {
        let mut units = g.units(p);
        units.extend(g.retreats(p).into_iter().map(|(u, _)| format!("*{u}")));
        h.set_units(p, &units, true);
    }
    // set_units alone opens every empty neighbour (as MILA's does).
    let mut open = h.retreats(fra)[0].1.clone();
    open.sort();
    assert_eq!(open, strings(&["GAS", "MAR", "MUN", "PIC"]));
    h.restore_retreats(&allowed);
    assert_eq!(h.retreats(fra), allowed);
    h.set_orders(fra, &strings(&["A BUR R MUN"]), true);
    assert!(h.orders(fra).is_empty(), "{:?}", h.orders(fra));
    h.set_orders(fra, &strings(&["A BUR R PIC"]), true);
    assert!(h.orders(fra).is_empty(), "{:?}", h.orders(fra));
    h.set_orders(fra, &strings(&["A BUR R GAS"]), true);
    assert_eq!(h.orders(fra), ["A BUR R GAS"]);
}

#[test]
fn history_keeps_each_phase_with_orders_and_results() {
    let mut g = game();
    let fra = power(&g, "FRANCE");
    g.set_orders(fra, &strings(&["A PAR - BUR"]), true);
    g.process();
    g.process();
    assert_eq!(g.history.len(), 2);
    assert_eq!(g.history[0].name, "S1901M");
    assert_eq!(g.history[0].orders_of(fra).collect::<Vec<_>>(), ["A PAR - BUR"]);
    assert_eq!(g.history[1].name, "F1901M");
}

#[test]
fn set_orders_stops_at_an_order_it_cannot_read_when_asked() {
    // The bindings read such an order as MILA does (its other names of
    // places) and file the rest from there, so it keeps its place.
    let mut g = game();
    let fra = power(&g, "FRANCE");
    g.stop_unread = true;
    g.set_orders(fra, &strings(&["A PAR - PIC", "A BURG H", "A MAR H"]), true);
    assert_eq!(g.unread_at, Some(1));
    assert_eq!(g.orders(fra), ["A PAR - PIC"]);
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    // In a retreat phase nothing of the call is filed.
    let mut h = burgundy_dislodged();
    h.stop_unread = true;
    h.set_orders(fra, &strings(&["A BUR R GAS", "A BURG R MAR"]), true);
    assert_eq!(h.unread_at, Some(1));
    assert!(h.orders(fra).is_empty() && h.errors.is_empty());
    assert!(!h.readable(fra, "A BURG R MAR") && h.readable(fra, "A BUR R MAR"));
}

#[test]
fn an_order_replacing_a_units_order_takes_its_place() {
    let mut g = game();
    let fra = power(&g, "FRANCE");
    g.set_orders(
        fra,
        &strings(&["A PAR H", "A MAR - BUR", "F BRE - ENG", "A MAR H"]),
        true,
    );
    assert_eq!(g.orders(fra), ["A PAR H", "A MAR H", "F BRE - ENG"]);
}

/// `set_units` and `set_centers` build the game's position as every
/// reader does (`State::from_position`): the same state the position
/// text reads.
#[test]
fn a_position_set_unit_by_unit_is_the_one_the_position_text_reads() {
    let text = "phase fall 1902 movement\nunits\n  France: A bur\n  France: F stp/sc\n  Germany: A par\n\
                owners\n  France: par bre mun\n  Germany: ber stp\n";
    let mut g = game();
    let read = dip_text::parse_position(g.map(), text, "t").unwrap();
    g.set_phase("F1902M").unwrap();
    g.clear_units(None);
    g.clear_centers(None);
    let (fra, ger) = (power(&g, "FRANCE"), power(&g, "GERMANY"));
    g.set_units(fra, &strings(&["A BUR", "F STP/SC"]), true);
    g.set_units(ger, &strings(&["A PAR"]), true);
    g.set_centers(fra, &strings(&["PAR", "BRE", "MUN"]), true);
    g.set_centers(ger, &strings(&["BER", "STP"]), true);
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.state, read);
    // A unit set where another stands takes its place; a centre set for
    // another power changes hands; a reset leaves the others' alone.
    g.set_units(ger, &strings(&["A BUR"]), false);
    g.set_centers(ger, &strings(&["PAR"]), false);
    assert_eq!(g.units(fra), ["F STP/SC"]);
    assert_eq!(g.units(ger), ["A PAR", "A BUR"]);
    assert_eq!(g.centers(fra), ["BRE", "MUN"]);
    g.set_centers(fra, &strings(&["MAR"]), true);
    assert_eq!(g.centers(fra), ["MAR"]);
    assert_eq!(g.centers(ger), ["BER", "STP", "PAR"]);
}

/// A saved state's units, centres and lists of retreats set again give
/// the same units, centres and retreats.
#[test]
fn a_retreat_phase_set_again_from_its_lists_keeps_every_unit_centre_and_retreat() {
    let g = burgundy_dislodged();
    let mut h = game();
    h.set_phase("S1901R").unwrap();
    h.clear_units(None);
    h.clear_centers(None);
    let mut allowed = Vec::new();
    for p in g.map().power_ids() {
        let mut units = g.units(p);
        units.extend(g.retreats(p).into_iter().map(|(u, _)| format!("*{u}")));
        h.set_units(p, &units, true);
        h.set_centers(p, &g.centers(p), true);
        allowed.extend(g.retreats(p));
    }
    h.restore_retreats(&allowed);
    assert!(h.errors.is_empty(), "{:?}", h.errors);
    for p in g.map().power_ids() {
        assert_eq!(h.units(p), g.units(p));
        assert_eq!(h.centers(p), g.centers(p));
        assert_eq!(h.retreats(p), g.retreats(p));
    }
}

#[test]
fn a_unit_that_cannot_stand_there_is_refused_as_the_position_text_refuses_it() {
    let mut g = game();
    let fra = power(&g, "FRANCE");
    let before = g.state.clone();
    g.set_units(fra, &strings(&["F MUN", "A PIC"]), false);
    assert_eq!(g.errors, ["`F MUN`: this unit needs a coast, or cannot stand there"]);
    let text = "phase spring 1901 movement\nunits\n  France: F MUN\n";
    let e = dip_text::parse_position(g.map(), text, "t").unwrap_err();
    assert_eq!(
        e.message,
        "`France: F MUN`: this unit needs a coast, or cannot stand there"
    );
    // The rest was set.
    let pic = g.map().find_province("pic").unwrap();
    assert!(before.unit(pic).is_none());
    assert_eq!(g.state.unit(pic).map(|u| u.power), Some(fra));
}

/// The position an edit leaves is built by `State::from_position` alone:
/// an entry it refuses is reported and left out, and the rest built the
/// same way (MILA reports and goes on).
#[test]
fn an_edit_the_map_cannot_hold_is_reported_and_the_rest_built_by_from_position() {
    let mut g = game();
    let map = g.map();
    let fra = power(&g, "FRANCE");
    let army = map.unit_types().iter().position(|t| t.letter == 'A').unwrap();
    let army = dip_core::UnitTypeId(army as u8);
    let region = |name: &str| map.province(map.find_province(name).unwrap()).regions[0];
    let at_sea = dip_core::Unit {
        power: fra,
        kind: army,
        region: region("eng"),
    };
    let in_picardy = dip_core::Unit {
        power: fra,
        kind: army,
        region: region("pic"),
    };
    g.edit_position(|p| {
        p.units.push(at_sea);
        p.units.push(in_picardy);
        p.standoffs.push(ProvinceId(9999));
    });
    assert_eq!(g.errors.len(), 2, "{:?}", g.errors);
    assert!(g.errors[0].contains("cannot stand there"), "{:?}", g.errors);
    assert!(g.errors[1].contains("no province 9999"), "{:?}", g.errors);
    let mut expected = dip_core::Position::of(&game().state);
    expected.units.push(in_picardy);
    assert_eq!(Ok(&g.state), State::from_position(map, &expected).as_ref());
    assert!(g.state.unit(map.find_province("eng").unwrap()).is_none());
}

#[test]
fn the_history_gives_back_each_position_as_it_was_processed() {
    // The history keeps a position as what is on the board only; read
    // back, it must be the whole position: units with their placement
    // stamps, dislodged units, owners, standoffs and MILA's influence.
    let mut g = game();
    let mut rng = dip_core::random::Rng::with_seed(7);
    let mut before = Vec::new();
    while g.history.len() < 60 && !g.done {
        let st = g.state.clone();
        let seq: Vec<u64> = (0..st.num_provinces())
            .map(|i| {
                if st.unit(ProvinceId(i as u16)).is_some() {
                    g.seq()[i]
                } else {
                    0
                }
            })
            .collect();
        before.push((st, seq, g.influence_stamps().to_vec()));
        for o in dip_core::random::random_orders(g.map(), &g.state, &g.rules, &mut rng) {
            let text = g.order_text(&o);
            g.set_orders(o.power, &[text], true);
        }
        g.process();
    }
    assert!(g.history.iter().any(|r| r.position.phase.kind == PhaseKind::Retreat));
    assert!(before.iter().any(|(s, _, _)| s.all_dislodged().next().is_some()));
    for (r, want) in g.history.iter().zip(&before) {
        assert_eq!(&r.position.board(g.map()), want, "{}", r.name);
    }
}

/// A variant comes from the module's one `Variants` value: the map games
/// play on is the one that value keeps, and a jDip search path added makes
/// the value again with it.
#[test]
fn a_variant_is_the_one_the_modules_variants_keeps() {
    let v = variant("ancmed").unwrap();
    let kept = super::variant::variants().get("ancmed").unwrap();
    assert!(std::ptr::eq(v.map, kept.map()));
    // MILA's two-power maps are kept there too.
    let two = variant("standard_france_austria").unwrap();
    let kept = super::variant::variants().get("standard_france_austria").unwrap();
    assert!(std::ptr::eq(two.map, kept.map()));
    assert_eq!(two.map.powers().len(), 2);
    // An empty folder: no plugin in it changes what other tests load.
    let folder = std::env::temp_dir().join(format!("dip-py-search-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    add_search_path(folder.clone());
    assert!(super::variant::variants().search_paths().contains(&folder));
    std::fs::remove_dir(&folder).unwrap();
}

#[test]
fn a_two_power_map_loaded_first_was_kept_as_the_standard_map() {
    // It was kept under its own name too, `standard`, when that was not
    // yet loaded: a game of the standard map then had two powers.
    let variants = dip_play::Variants::new();
    let two = super::variant::load(&variants, "standard_germany_italy").unwrap();
    assert_eq!(two.map().powers().len(), 2);
    assert_eq!(variants.get("standard").unwrap().map().powers().len(), 7);
    assert_eq!(
        super::variant::load(&variants, "standard")
            .unwrap()
            .map()
            .powers()
            .len(),
        7
    );
}

/// The MILA maps dip ships.
const MILA_MAPS: [&str; 8] = [
    "standard",
    "ancmed",
    "modern",
    "pure",
    "standard_fleet_rome",
    "colonial",
    "empire",
    "world",
];

/// dip prints orders in MILA's notation with dip-text's one printer: every
/// order text of a variant's order table (holds, moves, moves by convoy,
/// supports, convoys, retreats, disbands, builds, waives) reads back to an
/// order that `Style::Mila` prints as the same text, and every order listed
/// in a played game prints as listed.
#[test]
fn every_listed_order_prints_as_listed_in_mila_style() {
    for name in MILA_MAPS {
        let mut g = Game::new(variant(name).unwrap());
        let mut rng = dip_core::random::Rng::with_seed(5);
        let mut kinds = std::collections::HashSet::new();
        while (g.history.len() < 14 || kinds.len() < 3) && g.history.len() < 80 && !g.done {
            kinds.insert(g.state.phase.kind);
            let possible = g.possible();
            for (i, _) in g.v.locs.iter().enumerate() {
                for text in possible.orders(g.v, i) {
                    let o = g.read_mila(&text, PowerId(0)).unwrap();
                    assert_eq!(g.order_text(&o), text, "{name} {}", g.phase_name());
                }
            }
            for o in dip_core::random::random_orders(g.map(), &g.state, &g.rules, &mut rng) {
                let text = g.order_text(&o);
                g.set_orders(o.power, &[text], true);
            }
            g.process();
        }
        assert_eq!(kinds.len(), 3, "{name}: {kinds:?}");
        let table = g.v.orders.lock().unwrap();
        for text in &table.texts {
            let o = dip_text::parse_order_with(&g.v.vocab, text, Some(PowerId(0))).unwrap();
            let printed = dip_text::format_order_with(&g.v.vocab, &o, dip_text::Style::Mila);
            assert_eq!(&printed, text, "{name}");
        }
    }
}
