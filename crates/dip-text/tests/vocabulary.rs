//! The vocabulary built from plain lists (DipWork's NATIONLIST, UNITLIST,
//! ORDERLIST, synonyms, DIP's fixnames.dat), the error numbers, and the
//! result numbers.

use dip_core::{game, Ruleset};
use dip_text::{
    format_order_with, parse_order, parse_order_with, read_turn, result_code, CheckOptions, Code, Style, Vocabulary,
};

fn standard() -> dip_variants::Variant {
    dip_variants::standard()
}

#[test]
fn a_nation_list_adds_spellings() {
    let v = standard();
    let mut w = Vocabulary::bare(&v.map);
    assert!(w.nation("Preussen").is_none());
    w.add_nation_list(&["Ge Germany Preussen Reich", "Au Austria K.u.K."])
        .unwrap();
    assert_eq!(w.nation("preussen"), v.map.find_power("Germany"));
    assert_eq!(w.nation("Reich"), v.map.find_power("Germany"));
    assert_eq!(w.nation("Au"), v.map.find_power("Austria"));
    let o = parse_order_with(&w, "Reich A ber - kie", None).unwrap();
    assert_eq!(Some(o.power), v.map.find_power("Germany"));
}

#[test]
fn a_nation_list_line_naming_no_power_goes_by_position() {
    let v = standard();
    let mut w = Vocabulary::bare(&v.map);
    w.add_nation_list(&["Oe Oesterreich", "Gb Grossbritannien"]).unwrap();
    assert_eq!(w.nation("Gb"), v.map.find_power("England"));
    let too_many: Vec<String> = (0..8).map(|i| format!("X{i} Nation{i}")).collect();
    let e = Vocabulary::bare(&v.map).add_nation_list(&too_many).unwrap_err();
    assert_eq!(e.line, 8);
}

#[test]
fn unit_and_order_lists_add_words() {
    let v = standard();
    let mut w = Vocabulary::bare(&v.map).with_spellcheck(0);
    w.add_unit_list(&["A Ar Army Armee Heer # Costs=1 St=1", "F Fl Fleet Flotte Marine"])
        .unwrap();
    w.add_order_list(&["x xxx steht", "- geht", "S hilft", "C traegt"])
        .unwrap();
    let map = &v.map;
    let want = parse_order(map, "Germany: A ber S A mun - kie", None).unwrap();
    assert_eq!(
        parse_order_with(&w, "Germany: Heer ber hilft Heer mun geht kie", None),
        Ok(want)
    );
    let want = parse_order(map, "Germany: F kie C A ber - swe", None).unwrap();
    assert_eq!(
        parse_order_with(&w, "Germany: Marine kie traegt A ber - swe", None),
        Ok(want)
    );
    let want = parse_order(map, "Germany: A ber H", None).unwrap();
    assert_eq!(parse_order_with(&w, "Germany: Heer ber steht", None), Ok(want));
    let e = w
        .add_order_list(&["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
        .unwrap_err();
    assert_eq!(e.line, 10);
}

#[test]
fn synonyms_and_coast_synonyms() {
    let v = standard();
    let mut w = Vocabulary::new(&v.map);
    w.add_synonyms(&[
        "nth Nordmeer Nordsee-Mitte",
        "stp/sc Petersburg-Sued",
        "\"North Sea\" NSea",
    ])
    .unwrap();
    let map = &v.map;
    let want = parse_order(map, "England: F lon - nth", None).unwrap();
    for text in [
        "England: F lon - Nordmeer",
        "England: F lon - NSea",
        "England: F lon - nordsee-mitte",
    ] {
        assert_eq!(parse_order_with(&w, text, None), Ok(want), "{text}");
    }
    let want = parse_order(map, "Russia: F stp/sc - bot", None).unwrap();
    assert_eq!(parse_order_with(&w, "Russia: F Petersburg-Sued - bot", None), Ok(want));
    let e = w.add_synonyms(&["nth Nordsee", "xyz Unbekannt"]).unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn fixnames_renames_read_and_print() {
    let v = standard();
    let mut w = Vocabulary::new(&v.map);
    w.apply_fixnames(&["IOS,ION", "nth , NTS"]).unwrap();
    let map = &v.map;
    let o = parse_order_with(&w, "Italy: F ION - tun", None).unwrap();
    assert_eq!(o, parse_order(map, "Italy: F ion - tun", None).unwrap());
    assert_eq!(format_order_with(&w, &o, Style::Datc), "Italy: F ION - tun");
    let o = parse_order_with(&w, "England: F lon - NTS", None).unwrap();
    assert_eq!(format_order_with(&w, &o, Style::Dip), "ENG F(Lon) - NTS");
    assert!(w.apply_fixnames(&["no comma here"]).is_err());
    assert!(w.apply_fixnames(&["xyz,abc"]).is_err());
}

#[test]
fn word_lists_in_dipwork_layout() {
    let v = standard();
    let mut w = Vocabulary::bare(&v.map);
    let text = "% a comment\nNATIONLIST\nGe Germany Deutschland\nUNITLIST\nA Ar Army Armee # Costs=1\nORDERLIST\nx xxx\n- zieht\nS unterstuetzt\nC geleitet\nSYNONYMS\nmun Muenchen\nFIXNAMES\nion,IOS\nEND\n";
    w.apply_lists(text, false).unwrap();
    let want = parse_order(&v.map, "Germany: A ber S A mun - kie", None).unwrap();
    assert_eq!(
        parse_order_with(&w, "Deutschland Armee ber unterstuetzt Armee Muenchen zieht kie", None),
        Ok(want)
    );
    let e = Vocabulary::bare(&v.map)
        .apply_lists("NATIONLIST\nGe Germany\nSYNONYMS\nxyz abc\n", false)
        .unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    let e = Vocabulary::bare(&v.map).apply_lists("stray line\n", false).unwrap_err();
    assert_eq!(e.line, 1);
}

#[test]
fn the_spelling_check_scores_the_common_prefix() {
    let v = standard();
    let w = Vocabulary::new(&v.map).with_spellcheck(2);
    let hel = v.map.find_province("hel").unwrap();
    let (p, score, _) = w.spell("HEI").unwrap();
    assert_eq!((p.province, score), (hel, 2), "the seed's HEI -> HEL scores 2");
    assert!(Vocabulary::new(&v.map).spell("HEI").is_none(), "below SPELLCHECK 3");
    let (p, score, _) = w.spell("Helgolandx").unwrap();
    assert_eq!((p.province, score), (hel, 9));
    assert!(w.spell("Norw").is_none(), "Norway and the Norwegian Sea tie: no guess");
    assert!(Vocabulary::new(&v.map).with_spellcheck(0).spell("Northsea").is_none());
    assert!(w.suggestions("Norwy").iter().any(|s| s.starts_with("Norway")));
}

#[test]
fn error_numbers_are_dipworks() {
    let mut numbers: Vec<u16> = Code::ALL.iter().map(|c| c.number()).collect();
    numbers.sort_unstable();
    numbers.dedup();
    assert_eq!(numbers.len(), Code::ALL.len(), "numbers are unique");
    for n in [
        3, 6, 9, 12, 100, 102, 103, 104, 109, 111, 113, 115, 117, 119, 121, 124, 127, 130, 133, 136, 139, 142, 143,
        145, 148, 151, 154, 200, 203, 206, 209, 300, 303, 306,
    ] {
        let c = Code::from_number(n).unwrap_or_else(|| panic!("DipWork's {n}"));
        assert!(c.is_dipwork(), "{n}");
        assert_eq!(c.is_correction(), n < 100);
    }
    assert_eq!(Code::NoSuchUnit.to_string(), "209");
    assert_eq!(Code::MoveCoast.to_string(), "006");
}

#[test]
fn result_numbers_of_an_adjudicated_turn() {
    let v = standard();
    let w = Vocabulary::new(&v.map);
    let text = "Germany: A mun - bur\nFrance: A par - bur\nFrance: A mar S A par - bur\nGermany: A ber - sil\n";
    let report = read_turn(&w, &v.start, &Ruleset::DATC, &CheckOptions::default(), text, None);
    let outcome = game::adjudicate(&v.map, &v.start, &report.orders(), &Ruleset::DATC);
    let codes: Vec<Option<Code>> = outcome.orders().iter().take(4).map(result_code).collect();
    assert_eq!(codes, vec![Some(Code::Unsuccessful), None, None, None]);
}
