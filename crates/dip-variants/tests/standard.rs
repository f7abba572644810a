//! Facts of the bundled standard variant, checked through the map API.

use std::collections::HashMap;

use dip_core::map::{EdgeFlags, Terrain};
use dip_core::{Map, PhaseKind, RegionId, Season, UnitTypeId};

fn map() -> Map {
    dip_variants::standard().map
}

fn ut(map: &Map, letter: &str) -> UnitTypeId {
    map.find_unit_type(letter).expect("unit type")
}

fn region(map: &Map, name: &str) -> RegionId {
    match name.split_once('/') {
        Some((p, c)) => {
            let p = map.find_province(p).unwrap_or_else(|| panic!("province {p}"));
            map.find_coast(p, c).unwrap_or_else(|| panic!("coast {name}"))
        }
        None => map.main_region(map.find_province(name).unwrap_or_else(|| panic!("province {name}"))),
    }
}

fn adj(map: &Map, letter: &str, a: &str, b: &str) -> bool {
    let u = ut(map, letter);
    let (ra, rb) = (region(map, a), region(map, b));
    let there = map.adjacent(u, ra, rb);
    assert_eq!(there, map.adjacent(u, rb, ra), "{letter} {a}-{b} is not symmetric");
    there
}

#[test]
fn standard_parses_and_loads() {
    let v = dip_variants::standard();
    assert_eq!(v.name, "standard");
    assert_eq!(v.title, "Standard Diplomacy");
    assert_eq!(v.rules, dip_core::Ruleset::DATC);
    for name in ["standard", "Standard", "STANDARD"] {
        let w = dip_variants::load(name).expect("load standard");
        assert_eq!(w.map.num_provinces(), v.map.num_provinces());
    }
    assert_eq!(dip_variants::bundled().len(), 19);
    assert_eq!(dip_variants::bundled()[0].0, "standard");
    for (name, text) in dip_variants::bundled() {
        dip_variants::parse(text, name).unwrap_or_else(|e| panic!("bundled {name}: {e}"));
    }
}

#[test]
fn counts() {
    let v = dip_variants::standard();
    let m = &v.map;
    assert_eq!(m.num_provinces(), 76);
    assert_eq!(m.supply_centers().len(), 34);
    assert_eq!(m.victory_centers(), 18);
    assert_eq!(m.powers().len(), 7);
    assert_eq!(m.unit_types().len(), 2);
    assert_eq!(v.power_styles.len(), 7);
    let split: Vec<&str> = m
        .province_ids()
        .filter(|&p| !m.coasts(p).is_empty())
        .map(|p| m.province(p).abbr.as_str())
        .collect();
    assert_eq!(split, ["bul", "spa", "stp"]);
    assert_eq!(m.num_regions(), 76 + 6);
    let count = |t: Terrain| m.provinces().iter().filter(|p| p.terrain == t).count();
    assert_eq!(count(Terrain::Sea), 19);
    assert_eq!(count(Terrain::Land), 14);
    assert_eq!(count(Terrain::Coast), 42);
    assert_eq!(count(Terrain::Impassable), 1);
    let swi = m.find_province("swi").unwrap();
    assert_eq!(m.province(swi).terrain, Terrain::Impassable);
    assert!(m.clockwise(swi).is_empty());
    assert!(m.unit_type_ids().all(|u| m.edges(u, m.main_region(swi)).is_empty()));
}

#[test]
fn home_centres() {
    let m = map();
    let homes: HashMap<&str, Vec<&str>> = [
        ("AUS", vec!["bud", "tri", "vie"]),
        ("ENG", vec!["edi", "lon", "lvp"]),
        ("FRA", vec!["bre", "mar", "par"]),
        ("GER", vec!["ber", "kie", "mun"]),
        ("ITA", vec!["nap", "rom", "ven"]),
        ("RUS", vec!["mos", "sev", "stp", "war"]),
        ("TUR", vec!["ank", "con", "smy"]),
    ]
    .into_iter()
    .collect();
    for pw in m.power_ids() {
        let mut got: Vec<&str> = m
            .supply_centers()
            .iter()
            .filter(|&&p| m.is_home(p, pw))
            .map(|&p| m.province(p).abbr.as_str())
            .collect();
        got.sort_unstable();
        assert_eq!(got, homes[m.power(pw).abbr.as_str()], "{}", m.power(pw).name);
    }
    let neutral = m
        .supply_centers()
        .iter()
        .filter(|&&p| m.province(p).homes.is_empty())
        .count();
    assert_eq!(neutral, 12);
    let mut neutral: Vec<&str> = m
        .supply_centers()
        .iter()
        .filter(|&&p| m.province(p).homes.is_empty())
        .map(|&p| m.province(p).abbr.as_str())
        .collect();
    neutral.sort_unstable();
    assert_eq!(
        neutral,
        ["bel", "bul", "den", "gre", "hol", "nwy", "por", "rum", "ser", "spa", "swe", "tun"]
    );
    assert_eq!(m.power(m.find_power("English").unwrap()).name, "England");
    assert_eq!(m.power(m.find_power("turkey").unwrap()).abbr, "TUR");
}

#[test]
fn starting_position() {
    let v = dip_variants::standard();
    let (m, s) = (&v.map, &v.start);
    assert_eq!(s.phase.year, 1901);
    assert_eq!(s.phase.season, Season::Spring);
    assert_eq!(s.phase.kind, PhaseKind::Movement);
    assert_eq!(s.units().count(), 22);
    let expect = [
        ("AUS", "A", "vie"),
        ("AUS", "A", "bud"),
        ("AUS", "F", "tri"),
        ("ENG", "F", "lon"),
        ("ENG", "F", "edi"),
        ("ENG", "A", "lvp"),
        ("FRA", "F", "bre"),
        ("FRA", "A", "par"),
        ("FRA", "A", "mar"),
        ("GER", "F", "kie"),
        ("GER", "A", "ber"),
        ("GER", "A", "mun"),
        ("ITA", "F", "nap"),
        ("ITA", "A", "rom"),
        ("ITA", "A", "ven"),
        ("RUS", "A", "mos"),
        ("RUS", "A", "war"),
        ("RUS", "F", "sev"),
        ("RUS", "F", "stp/sc"),
        ("TUR", "F", "ank"),
        ("TUR", "A", "con"),
        ("TUR", "A", "smy"),
    ];
    for (pw, t, r) in expect {
        let r = region(m, r);
        let u = s
            .unit(m.province_of(r))
            .unwrap_or_else(|| panic!("no unit in {}", m.region_name(r)));
        assert_eq!(m.power(u.power).abbr, pw);
        assert_eq!(u.kind, ut(m, t));
        assert_eq!(u.region, r, "{}", m.region_name(r));
    }
    for pw in m.power_ids() {
        let n = if m.power(pw).abbr == "RUS" { 4 } else { 3 };
        assert_eq!(s.center_count(m, pw), n, "{}", m.power(pw).name);
        assert_eq!(s.units().filter(|(_, u)| u.power == pw).count(), n);
    }
}

#[test]
fn borders_from_the_reference_facts() {
    let m = map();
    let yes = [
        ("F", "stp/nc", "bar"),
        ("F", "stp/nc", "nwy"),
        ("F", "stp/sc", "bot"),
        ("F", "stp/sc", "fin"),
        ("F", "stp/sc", "lvn"),
        ("A", "mos", "stp"),
        ("A", "nwy", "stp"),
        ("A", "fin", "stp"),
        ("A", "lvn", "stp"),
        ("F", "bul/ec", "bla"),
        ("F", "bul/ec", "con"),
        ("F", "bul/ec", "rum"),
        ("F", "bul/sc", "aeg"),
        ("F", "bul/sc", "con"),
        ("F", "bul/sc", "gre"),
        ("F", "spa/nc", "mao"),
        ("F", "spa/sc", "mao"),
        ("F", "spa/nc", "gas"),
        ("F", "spa/sc", "mar"),
        ("F", "spa/sc", "lyo"),
        ("F", "spa/sc", "wes"),
        ("F", "con", "smy"),
        ("A", "con", "smy"),
        ("F", "tus", "tys"),
        ("F", "lon", "nth"),
        ("F", "lon", "eng"),
        ("F", "lon", "wal"),
        ("A", "lon", "wal"),
        ("A", "lon", "yor"),
        ("F", "bot", "swe"),
        ("F", "bot", "fin"),
        ("F", "bot", "lvn"),
        ("A", "gal", "ukr"),
        ("A", "lvn", "war"),
        ("F", "kie", "den"),
        ("A", "kie", "den"),
        ("A", "edi", "lvp"),
        ("F", "naf", "tun"),
        ("F", "eng", "iri"),
        ("F", "nao", "lvp"),
    ];
    let no = [
        ("A", "lon", "nth"),
        ("F", "lon", "lvp"),
        ("A", "edi", "nth"),
        ("F", "stp/nc", "bot"),
        ("F", "stp/sc", "bar"),
        ("F", "bul/ec", "aeg"),
        ("F", "bul/sc", "bla"),
        ("F", "spa/nc", "wes"),
        ("F", "spa/nc", "mar"),
        ("F", "ank", "smy"),
        ("F", "ank", "syr"),
        ("F", "mos", "stp/nc"),
        ("A", "par", "eng"),
        ("F", "wal", "yor"),
        ("A", "nwy", "swi"),
        ("A", "bur", "swi"),
        ("A", "mun", "swi"),
    ];
    for (t, a, b) in yes {
        assert!(adj(&m, t, a, b), "{t} {a}-{b} should border");
    }
    for (t, a, b) in no {
        assert!(!adj(&m, t, a, b), "{t} {a}-{b} should not border");
    }
    assert!(m.convoy_adjacent(m.find_province("nth").unwrap(), m.find_province("lon").unwrap()));
    assert!(m.is_convoy_space(m.find_province("nth").unwrap()));
    assert!(!m.is_convoy_space(m.find_province("lon").unwrap()));
}

/// The size of the border graphs: the reference lists 111 army and 141 fleet
/// borders (a `coast` border counts for both). Every border is symmetric and
/// has no flags.
#[test]
fn border_counts() {
    let m = map();
    for (letter, n) in [("A", 111), ("F", 141)] {
        let u = ut(&m, letter);
        let mut directed = 0;
        for r in 0..m.num_regions() {
            let r = RegionId(r as u16);
            for e in m.edges(u, r) {
                assert_eq!(e.flags, EdgeFlags::default());
                assert!(
                    m.adjacent(u, e.to, r),
                    "{letter} {}-{}",
                    m.region_name(r),
                    m.region_name(e.to)
                );
                directed += 1;
            }
        }
        assert_eq!(directed, 2 * n, "{letter} borders");
    }
}

#[test]
fn aliases_resolve_and_do_not_collide() {
    let m = map();
    let want = [
        ("mao", &["mid", "mat", "Mid-Atlantic Ocean", "mid atlantic"][..]),
        ("nao", &["nat", "North Atlantic Ocean"]),
        ("nwg", &["nrg", "nws", "Norwegian Sea"]),
        ("lyo", &["gol", "gul", "Gulf of Lyon", "gulf of lions"]),
        ("eng", &["ech", "enc", "English Channel"]),
        ("bot", &["gob", "Gulf of Bothnia"]),
        ("tys", &["tyn", "trr", "Tyrrhenian Sea"]),
        ("stp", &["pet", "stpete", "St Petersburg", "st. petersburg"]),
        ("eas", &["eme", "ems", "Eastern Mediterranean"]),
        ("wes", &["wme", "wms", "Western Mediterranean"]),
        ("hel", &["hgb", "heb", "Helgoland Bight", "heligoland bight"]),
        ("ska", &["skg", "Skagerrak"]),
        ("bal", &["Baltic Sea"]),
        ("bla", &["Black Sea"]),
        ("nth", &["nts", "North Sea"]),
        ("ion", &["ios", "Ionian Sea"]),
        ("adr", &["adi", "Adriatic Sea"]),
        ("aeg", &["aes", "Aegean Sea"]),
        ("bar", &["bas", "Barents Sea"]),
        ("iri", &["irs", "Irish Sea"]),
        ("nwy", &["nor", "Norway"]),
        ("lvn", &["lvo", "liv", "Livonia"]),
        ("tus", &["tsc", "Tuscany"]),
        ("tyr", &["trl", "Tyrolia", "tyrol"]),
        ("boh", &["bhm", "Bohemia"]),
        ("gal", &["glc", "Galicia"]),
        ("ukr", &["ukn", "Ukraine"]),
        ("arm", &["amn", "Armenia"]),
        ("pie", &["pdm", "Piedmont"]),
        ("pic", &["pcd", "Picardy"]),
        ("gas", &["gsc", "Gascony"]),
        ("bur", &["brg", "Burgundy"]),
        ("ruh", &["rhr", "Ruhr"]),
        ("pru", &["prs", "Prussia"]),
        ("sil", &["sls", "Silesia"]),
        ("yor", &["yrk", "Yorkshire"]),
        ("wal", &["wls", "Wales"]),
        ("cly", &["cld", "Clyde"]),
        ("naf", &["nfr", "North Africa"]),
        ("syr", &["Syria"]),
        ("alb", &["Albania"]),
        ("swi", &["Switzerland"]),
        ("con", &["kon", "Constantinople"]),
        ("sev", &["sew", "Sevastopol"]),
        ("vie", &["wie", "Vienna"]),
        ("mun", &["mue", "Munich"]),
        ("nap", &["nea", "Naples"]),
    ];
    for (abbr, names) in want {
        let p = m.find_province(abbr).unwrap_or_else(|| panic!("{abbr}"));
        assert_eq!(m.province(p).abbr, abbr);
        for n in names {
            assert_eq!(m.find_province(n), Some(p), "`{n}` should name {abbr}");
        }
    }
    // Every name of every province leads back to it, and no two provinces
    // share a name.
    let mut seen: HashMap<String, &str> = HashMap::new();
    for p in m.province_ids() {
        let prov = m.province(p);
        for n in std::iter::once(&prov.abbr)
            .chain([&prov.name])
            .chain(prov.aliases.iter())
        {
            assert_eq!(m.find_province(n), Some(p), "`{n}` of {}", prov.abbr);
            if let Some(other) = seen.insert(n.to_lowercase(), &prov.abbr) {
                assert_eq!(other, prov.abbr, "`{n}` names both {other} and {}", prov.abbr);
            }
        }
    }
    // The ones the brief warns about.
    assert_eq!(m.province(m.find_province("bla").unwrap()).name, "Black Sea");
    assert_eq!(m.province(m.find_province("bal").unwrap()).name, "Baltic Sea");
    assert_eq!(m.province(m.find_province("rom").unwrap()).name, "Rome");
    assert_eq!(m.province(m.find_province("rum").unwrap()).name, "Rumania");
    assert_eq!(m.province(m.find_province("eng").unwrap()).name, "English Channel");
}

#[test]
fn full_names() {
    let m = map();
    for (abbr, name) in [
        ("mao", "Mid-Atlantic Ocean"),
        ("lyo", "Gulf of Lyon"),
        ("hel", "Helgoland Bight"),
        ("naf", "North Africa"),
        ("tyr", "Tyrolia"),
        ("eas", "Eastern Mediterranean"),
        ("stp", "St Petersburg"),
        ("nao", "North Atlantic Ocean"),
    ] {
        assert_eq!(m.province(m.find_province(abbr).unwrap()).name, name);
    }
}

#[test]
fn positions() {
    let m = map();
    for p in m.provinces() {
        let (x, y) = p.pos.unwrap_or_else(|| panic!("{} has no position", p.abbr));
        assert!(
            (0.0..=1200.0).contains(&x) && (0.0..=1000.0).contains(&y),
            "{} at {x},{y}",
            p.abbr
        );
    }
    for (i, r) in m.regions().iter().enumerate() {
        assert!(r.pos.is_some(), "{} has no position", m.region_name(RegionId(i as u16)));
    }
    let pos = |n: &str| m.province(m.find_province(n).unwrap()).pos.unwrap();
    let east_of = |a: &str, b: &str| assert!(pos(a).0 > pos(b).0, "{a} should be east of {b}");
    let north_of = |a: &str, b: &str| assert!(pos(a).1 < pos(b).1, "{a} should be north of {b}");
    east_of("lon", "wal");
    east_of("par", "bre");
    east_of("mos", "war");
    east_of("ber", "kie");
    east_of("ven", "pie");
    east_of("con", "bul");
    east_of("swe", "nwy");
    east_of("ank", "con");
    north_of("kie", "mun");
    north_of("edi", "lvp");
    north_of("lvp", "wal");
    north_of("stp", "mos");
    north_of("tus", "rom");
    north_of("bur", "mar");
    north_of("ukr", "sev");
    north_of("sev", "arm");
    north_of("ser", "gre");
    // Coasts lie on their side of the province.
    let rpos = |n: &str| m.region(region(&m, n)).pos.unwrap();
    assert!(rpos("stp/nc").1 < rpos("stp/sc").1);
    assert!(rpos("spa/nc").1 < rpos("spa/sc").1);
    assert!(rpos("bul/ec").0 > rpos("bul/sc").0);
    // Neighbours are near: no border is longer than a third of the canvas,
    // except the long reaches of the northern seas.
    for u in m.unit_type_ids() {
        for (i, r) in m.regions().iter().enumerate() {
            for e in m.edges(u, RegionId(i as u16)) {
                let (a, b) = (r.pos.unwrap(), m.region(e.to).pos.unwrap());
                let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                let far = ["nwg", "bar", "nao", "stp", "mao"]
                    .iter()
                    .any(|n| [r.province, m.province_of(e.to)].contains(&m.find_province(n).unwrap()));
                assert!(
                    far || d < 400.0,
                    "{}-{} is {d} long",
                    m.region_name(RegionId(i as u16)),
                    m.region_name(e.to)
                );
            }
        }
    }
}
