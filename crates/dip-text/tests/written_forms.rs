//! The ways of writing orders jDip's order-reading suite uses, one test per
//! form, each named after what it reads (docs/orders.md, "More written
//! forms").

use dip_core::{Order, PowerId, State};
use dip_text::{parse_order_and_path, parse_order_with, scan_line, ScanState, Vocabulary};

fn standard() -> &'static dip_variants::Variant {
    use std::sync::OnceLock;
    static V: OnceLock<dip_variants::Variant> = OnceLock::new();
    V.get_or_init(dip_variants::standard)
}

/// The position of jDip's suite: England in lon, lvp, iri, eng, nao;
/// France in bre, naf, bur.
fn position() -> State {
    let v = standard();
    let text = "variant standard\nphase spring 1901 movement\nunits\n  England: A lon\n  England: A lvp\n  England: F iri\n  England: F eng\n  England: F nao\n  France: F bre\n  France: F naf\n  France: A bur\n";
    dip_text::parse_position(&v.map, text, "position.txt").expect("position")
}

fn power(name: &str) -> PowerId {
    standard().map.find_power(name).expect("power")
}

/// Reads `line` with the default words (spelling check 3), England's
/// order unless the line names a power.
fn read(line: &str) -> Option<Order> {
    let v = standard();
    let vocab = Vocabulary::new(&v.map);
    parse_order_with(&vocab, line, Some(power("England"))).ok()
}

fn read_in_position(line: &str) -> Option<Order> {
    let v = standard();
    let state = position();
    let vocab = Vocabulary::new(&v.map).with_position(&state);
    parse_order_with(&vocab, line, Some(power("France"))).ok()
}

fn same(line: &str, plain: &str) {
    let v = standard();
    let want = dip_text::parse_order(&v.map, plain, None).expect("the plain form reads");
    assert_eq!(read(line), Some(want), "`{line}` should read as `{plain}`");
}

#[test]
fn arrow_with_two_dashes_is_a_move() {
    same("lvp-->edi", "England: lvp - edi");
    same("lvp --> edi", "England: lvp - edi");
}

#[test]
fn arrows_dash_equals_and_double_equals_are_moves() {
    same("lvp-=>edi", "England: lvp - edi");
    same("lvp ==> edi", "England: lvp - edi");
}

#[test]
fn arrow_with_three_dashes_is_no_move() {
    assert_eq!(read("lvp ---> edi"), None);
}

#[test]
fn move_word_first_then_the_unit() {
    same("m lvp-edi", "England: lvp - edi");
    same("move army lvp-edi", "England: A lvp - edi");
    same("move lvp to edi", "England: lvp - edi");
    same("m a lvp-lon", "England: A lvp - lon");
}

#[test]
fn move_word_first_with_via_convoy() {
    same("m lon-wal by convoy", "England: lon - wal via convoy");
}

#[test]
fn attacks_and_attack_on_are_moves() {
    same("lvp attacks edi", "England: lvp - edi");
    same("lvp attack on edi", "England: lvp - edi");
    same("lvp attacks on edi", "England: lvp - edi");
    same("lvp attack of edi", "England: lvp - edi");
}

#[test]
fn into_and_attack_into_are_moves() {
    same("lvp into edi", "England: lvp - edi");
    same("lvp attacks into edi", "England: lvp - edi");
}

#[test]
fn move_to_and_moves_to_are_moves() {
    same("lvp move to edi", "England: lvp - edi");
    same("lvp moves to edi", "England: lvp - edi");
}

#[test]
fn army_in_province_supports_army_in_province() {
    same("Army in lvp supports army in edi", "England: A lvp S A edi");
}

#[test]
fn fleet_in_supports_fleet_in_moving_to() {
    same(
        "France: Fleet in Brest supports Fleet in North Africa moving to Mid-Atlantic Ocean",
        "France: F bre S F naf - mao",
    );
    same(
        "France: Fleet in Brest supports Fleet in North Africa move to Mid-Atlantic Ocean",
        "France: F bre S F naf - mao",
    );
}

#[test]
fn removes_the_fleet_in_the_province() {
    same("France: Removes the fleet in the North Africa.", "France: F naf D");
}

#[test]
fn build_an_army_in_and_build_a_fleet_in() {
    same("Germany: Build an Army in Berlin.", "Germany: build A ber");
    same("Germany: Builds a Fleet in Berlin.", "Germany: build F ber");
}

#[test]
fn full_stop_after_a_coast_ends_the_line() {
    same(
        "Austria: Army Serbia SUPPORT Fleet Bulgaria (south coast).",
        "Austria: A ser S F bul/sc",
    );
}

#[test]
fn one_letter_power_before_a_colon() {
    assert_eq!(read("f: a bur holds").map(|o| o.power), Some(power("France")));
    assert_eq!(read("e: a lon holds").map(|o| o.power), Some(power("England")));
    // `b`: Britain, another name of England.
    assert_eq!(read("b: a lon holds").map(|o| o.power), Some(power("England")));
}

#[test]
fn misspelled_power_before_a_colon() {
    for line in ["britaine: a lon holds", "bretain: a lon holds", "ingland: a lon holds"] {
        assert_eq!(read(line).map(|o| o.power), Some(power("England")), "{line}");
    }
}

#[test]
fn misspelled_power_is_an_error_with_nation_spelling_off() {
    let v = standard();
    let vocab = Vocabulary::new(&v.map).with_nation_spelling(false);
    assert!(parse_order_with(&vocab, "Germnay: A mun H", None).is_err());
    // And without the spelling check at all.
    assert!(dip_text::parse_order(&v.map, "ingland: A lon H", None).is_err());
}

#[test]
fn misspelled_power_needs_the_colon() {
    // Without a colon a word that is no power is no power.
    assert!(read("ingland a lon holds").is_none());
}

#[test]
fn spelling_prefers_the_province_where_a_unit_stands() {
    let v = standard();
    let bur = v.map.find_province("bur").expect("bur");
    for line in [
        "a bargandy holds",
        "a bergendee holds",
        "a bargdrly holds",
        "a burgandy holds",
    ] {
        let o = read_in_position(line).unwrap_or_else(|| panic!("`{line}` reads"));
        assert_eq!(o.unit().map(|u| u.province), Some(bur), "{line}");
    }
    // Without the position `bargandy` is read by its first letters: Barents Sea.
    let bar = v.map.find_province("bar").expect("bar");
    assert_eq!(
        read("a bargandy holds").and_then(|o| o.unit()).map(|u| u.province),
        Some(bar)
    );
}

#[test]
fn spelling_by_position_refuses_a_name_like_two_units() {
    assert_eq!(read_in_position("a brigawly holds"), None);
}

#[test]
fn spelling_of_a_destination_prefers_the_neighbours() {
    let v = standard();
    // `pikardy` from Burgundy: Picardy, a neighbour.
    let pic = v.map.find_province("pic").expect("pic");
    let o = read_in_position("France: A bur - pikardy").expect("reads");
    assert!(matches!(o.kind, dip_core::OrderKind::Move(_, d, _) if d.province == pic));
}

#[test]
fn explicit_convoy_path_keeps_the_destination_and_says_path() {
    let v = standard();
    let vocab = Vocabulary::new(&v.map);
    let s = scan_line(&vocab, "England: a lvp-iri-eng-lon", &mut ScanState::default()).expect("scanned");
    let (iri, eng) = (
        v.map.find_province("iri").expect("iri"),
        v.map.find_province("eng").expect("eng"),
    );
    assert_eq!(s.path, [iri, eng], "the path is reported");
    let lon = v.map.find_province("lon").expect("lon");
    assert!(matches!(s.order, Some(dip_core::OrderKind::Move(_, d, false)) if d.province == lon));
    let s = scan_line(&vocab, "England: a lvp-lon", &mut ScanState::default()).expect("scanned");
    assert!(s.path.is_empty());
    // The strict reader gives the same order and path from one reading.
    let (o, path) = parse_order_and_path(&vocab, "England: a lvp-iri-eng-lon", None).expect("reads");
    assert_eq!(path, [iri, eng]);
    assert_eq!(
        Some(o),
        parse_order_with(&vocab, "England: a lvp-iri-eng-lon", None).ok()
    );
    assert!(matches!(o.kind, dip_core::OrderKind::Move(_, d, false) if d.province == lon));
    let (_, path) = parse_order_and_path(&vocab, "England: a lvp-lon", None).expect("reads");
    assert!(path.is_empty());
}

#[test]
fn spelling_of_a_unit_prefers_the_writers_units() {
    // `northatlafrica` is as like North Africa (France's fleet) as the North
    // Atlantic Ocean (England's): each writer's own unit is read.
    let v = standard();
    let state = position();
    let vocab = Vocabulary::new(&v.map).with_position(&state);
    let place = |line: &str| {
        parse_order_with(&vocab, line, None)
            .ok()
            .and_then(|o| o.unit())
            .map(|u| v.map.province(u.province).abbr.clone())
    };
    assert_eq!(place("England: F northatlafrica holds").as_deref(), Some("nao"));
    assert_eq!(place("France: F northatlafrica holds").as_deref(), Some("naf"));
    assert_eq!(
        place("F northatlafrica holds"),
        None,
        "without a writer the name is like two units"
    );
}

#[test]
fn spelling_reads_a_misspelled_name_of_two_words_whole() {
    // `Nort Sea` from the English Channel: both words make the North Sea
    // (read word by word, `Nort` would leave `Sea` over).
    let v = standard();
    let nth = v.map.find_province("nth").expect("nth");
    let o = read_in_position("England: F eng - Nort Sea").expect("reads");
    assert!(matches!(o.kind, dip_core::OrderKind::Move(_, d, _) if d.province == nth));
}
