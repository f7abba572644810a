//! One test per bug fixed in the order reader, named after the bug.

use dip_core::{PowerId, Ruleset};
use dip_text::{parse_order, read_turn, CheckOptions, Code, Fate, Vocabulary};

fn standard() -> dip_variants::Variant {
    dip_variants::standard()
}

#[test]
fn hyphenated_multiword_name_does_not_swallow_the_arrow() {
    let v = standard();
    let got = parse_order(
        &v.map,
        "Fleet Mid-Atlantic Ocean -> Spain (north coast)",
        Some(PowerId(2)),
    );
    let want = parse_order(&v.map, "France: F mao - spa/nc", None);
    assert_eq!(got, want);
}

#[test]
fn nation_abbreviation_that_is_a_province_falls_back_to_the_province() {
    let v = standard();
    // ENG is England and the English Channel: `ENG D` disbands the fleet there.
    let got = parse_order(&v.map, "ENG D", Some(PowerId(2)));
    let want = parse_order(&v.map, "France: eng D", None);
    assert_eq!(got, want);
    assert_eq!(
        parse_order(&v.map, "ENG F(NTH) - Nwy", None),
        parse_order(&v.map, "England: F nth - nwy", None)
    );
}

#[test]
fn press_is_not_spellchecked_into_an_order() {
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let r = read_turn(
        &w,
        &v.start,
        &Ruleset::DATC,
        &CheckOptions::default(),
        "Hello Germany!\n",
        None,
    );
    let line = &r.lines[0];
    assert_eq!(line.fate, Fate::Deleted);
    assert_eq!(line.notes[0].code, Code::UnitOrNationExpected);
}

#[test]
fn standardising_a_unit_is_not_a_change() {
    let v = standard();
    let w = Vocabulary::new(&v.map);
    // The fleet stands on stp/sc: writing `F StP` names it, nothing changed.
    let r = read_turn(
        &w,
        &v.start,
        &Ruleset::DATC,
        &CheckOptions {
            nsu_checking_off: true,
            ..Default::default()
        },
        "Russia: F StP-Bot\n",
        None,
    );
    assert!(r.lines.iter().all(|l| l.fate == Fate::Accepted), "{:?}", r.lines);
}

#[test]
fn order_without_unit_type_is_300_as_dipwork_says() {
    // DipWork's zeUnitTypeExp: `Tu Con-Bul` names no unit type. dip reads
    // it with the unit that stands there and reports 300, never silently.
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let r = read_turn(
        &w,
        &v.start,
        &Ruleset::DATC,
        &CheckOptions::default(),
        "Tu Con-Bul\n",
        None,
    );
    let l = &r.lines[0];
    assert_eq!(l.fate, Fate::Changed, "{l:?}");
    assert_eq!(l.worst().map(|c| c.number()), Some(300));
    assert!(l.order.is_some(), "the army in Constantinople moves");
}

#[test]
fn allowed_foreign_orders_pass_dip_cores_check_too() {
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let opts = CheckOptions {
        allow_foreign: true,
        nsu_checking_off: true,
    };
    let r = read_turn(&w, &v.start, &Ruleset::DATC, &opts, "Austria: F lon - nth\n", None);
    assert_eq!(r.lines[0].fate, Fate::Accepted, "{:?}", r.lines[0]);
}

#[test]
fn threephase_in_orders_txt_is_a_parameter_not_a_303() {
    // The example game's ORDERS.TXT set THREEPHASE and got a false
    // deletion [303]; an unknown keyword gets its own number (412).
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let r = read_turn(
        &w,
        &v.start,
        &Ruleset::DATC,
        &CheckOptions::default(),
        "THREEPHASE ja\nFNPLAINOUT P.TXT\nFOO_BAR ja\nNATION France\nA par-bur\nWAIVE\n",
        None,
    );
    let numbered: Vec<(usize, Option<u16>)> = r
        .lines
        .iter()
        .filter(|l| l.line > 0)
        .map(|l| (l.line, l.worst().map(|c| c.number())))
        .collect();
    // `WAIVE` (MILA's word) is an order, not a keyword: in a movement
    // phase it is an order of the wrong phase (403), not 412.
    assert_eq!(numbered, [(3, Some(412)), (5, None), (6, Some(403))], "{:?}", r.lines);
}

#[test]
fn convoy_ditto_after_a_move_convoys_that_move() {
    // DipWork's manual: `F TYS C "` repeats the order above; after
    // `A Nap-Tun` that is the move to convoy (it was "nothing to repeat").
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let mut st = dip_core::State::empty(&v.map, v.start.phase);
    for u in ["Italy: A nap", "Italy: F ion", "Italy: F tys"] {
        st.place(&v.map, dip_text::position::parse_unit_with(&w, u).unwrap());
    }
    let r = read_turn(
        &w,
        &st,
        &Ruleset::DATC,
        &CheckOptions::default(),
        "Italy: A Nap-Tun\nItaly: F ION C \"\nItaly: F TYS S \"\n",
        None,
    );
    let printed: Vec<String> = r
        .lines
        .iter()
        .map(|l| dip_text::format_order(&v.map, &l.order.unwrap(), dip_text::Style::Datc))
        .collect();
    assert_eq!(
        printed,
        [
            "Italy: A nap - tun",
            "Italy: F ion C A nap - tun",
            "Italy: F tys S A nap - tun"
        ]
    );
}

#[test]
fn dip_style_keeps_the_nation_of_the_supported_unit() {
    // DIP printed multinational supports with the other nation:
    // `ENG F(Lon) S FRA F(Bre) - ENG`; the line reads back to the order.
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let r = read_turn(
        &w,
        &v.start,
        &Ruleset::DATC,
        &CheckOptions::default(),
        "England: F lon S France F bre - eng\nFrance: F bre - eng\n",
        None,
    );
    let o = r.lines[0].order.unwrap();
    let text = dip_text::format_order_in(&w, &v.start, &o, dip_text::Style::Dip);
    assert_eq!(text, "ENG F(Lon) S FRA F(Bre) - ENG");
    let back = read_turn(
        &w,
        &v.start,
        &Ruleset::DATC,
        &CheckOptions::default(),
        &format!("{text}\nFRA F(Bre) - ENG\n"),
        None,
    );
    assert_eq!(back.lines[0].order, Some(o));
}

#[test]
fn hyphenated_nation_before_a_colon_is_the_nation() {
    // jDip's Chaos test variant names its powers `C-Ber`, `A-Ank`; the
    // lexer splits `C-Ber:` at the hyphen, which read as a move from `C`.
    let text = "variant hy\ntitle Hyphens\npower CBE C-Ber C-Ber\npower AAN A-Ank A-Ank\n\
                province ber Berlin land center\nprovince mun Munich land center\nborder A ber mun\n";
    let v = dip_variants::parse(text, "hy.variant").unwrap();
    let o = parse_order(&v.map, "C-Ber: A ber - mun", None).unwrap();
    assert_eq!(o.power, v.map.find_power("CBE").unwrap());
    let o = parse_order(&v.map, "A-Ank: A mun H", None).unwrap();
    assert_eq!(o.power, v.map.find_power("AAN").unwrap());
    // Without a colon a hyphen stays a move: `ber-mun`.
    let o = parse_order(&v.map, "C-Ber: A ber-mun", None).unwrap();
    assert!(matches!(o.kind, dip_core::OrderKind::Move { .. }), "{o:?}");
}

/// A Chaos power is named after its home centre: "St Petersburg: A stp"
/// was read as the province St Petersburg followed by words that are no
/// order, so a position in which St Petersburg had built did not read back
/// (the server's games stalled on it).
#[test]
fn chaos_power_named_st_petersburg_reads_back_from_a_position() {
    let v = dip_variants::load("chaos").unwrap();
    let map = &v.map;
    let power = map.find_power("St Petersburg").unwrap();
    let mut state = v.start.clone();
    let region = map.main_region(map.find_province("stp").unwrap());
    state.place(
        map,
        dip_core::Unit {
            power,
            kind: map.find_unit_type("A").unwrap(),
            region,
        },
    );
    let text = dip_text::format_position(map, &state);
    assert!(text.contains("  St Petersburg: A stp\n"), "{text}");
    assert_eq!(dip_text::parse_position(map, &text, "chaos").unwrap(), state);
    // The unit's own line, and with a coast, alone.
    let u = dip_text::position::parse_unit(map, "St Petersburg: F stp/sc").unwrap();
    assert_eq!(
        (u.power, dip_text::position::format_unit(map, &u).as_str()),
        (power, "St Petersburg: F stp/sc")
    );
}

/// Orders as dip writes them for the Chaos power named after its home
/// centre, `St Petersburg: build F stp/sc`, were read as a hold of the
/// unit in St Petersburg (the nation's two words were taken for the
/// province): the power's builds were lost, and any order of it written
/// with its nation read as another.
#[test]
fn an_order_of_the_chaos_power_st_petersburg_was_read_as_a_hold_in_stp() {
    let v = dip_variants::load("chaos").unwrap();
    let map = &v.map;
    let power = map.find_power("St Petersburg").unwrap();
    let vocab = Vocabulary::new(map);
    for text in [
        "St Petersburg: build F stp/sc",
        "St Petersburg: build A stp",
        "St Petersburg: A stp - mos",
        "St Petersburg: F stp/sc H",
    ] {
        let o = parse_order(map, text, None).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(o.power, power, "{text}");
        assert_eq!(dip_text::format_order(map, &o, dip_text::Style::Datc), text);
        // The same line in an orders file, for that power or for any.
        for given in [None, Some(power)] {
            let lines = dip_text::read_orders(&vocab, text, given);
            assert_eq!(lines.len(), 1);
            assert_eq!(lines[0].power, Some(power), "{text}");
            assert_eq!(lines[0].scanned.order, Some(o.kind), "{text}");
        }
    }
    // The province alone is still the province.
    let o = parse_order(map, "A St Petersburg - Moscow", Some(power)).unwrap();
    assert!(matches!(o.kind, dip_core::OrderKind::Move { .. }), "{o:?}");
}

/// DIP's style wrote the Ionian Sea as DIP names it on the standard map,
/// `IOS`, on every map with a province `ion` named so: Ancient
/// Mediterranean's reads no `IOS`, and `GRE F(IOS) - AUS` was no order.
#[test]
fn dip_style_wrote_ios_for_the_ionian_sea_of_a_map_that_cannot_read_it() {
    let v = dip_variants::load("ancmed").unwrap();
    let map = &v.map;
    let greece = map.find_power("Greece").unwrap();
    let o = parse_order(map, "Greece: F ion - aus", None).unwrap();
    let text = dip_text::format_order(map, &o, dip_text::Style::Dip);
    assert_eq!(text, "GRE F(ION) - AUS");
    assert_eq!(parse_order(map, &text, Some(greece)).unwrap(), o);
    // On the standard map DIP's own name stays, and reads back.
    let s = standard();
    let italy = s.map.find_power("Italy").unwrap();
    let o = parse_order(&s.map, "Italy: F ion - tun", None).unwrap();
    let text = dip_text::format_order(&s.map, &o, dip_text::Style::Dip);
    assert_eq!(text, "ITA F(IOS) - Tun");
    assert_eq!(parse_order(&s.map, &text, Some(italy)).unwrap(), o);
}
