//! `State::from_position`, the one way from a position to a state: it
//! builds what placing each entry by hand built, refuses (and names) each
//! entry the map cannot hold instead of dropping it, and every reader
//! (the position text, a variant's start) goes through it.

use dip_core::position::Entry;
use dip_core::{
    Dislodged, Map, Phase, PhaseKind, Position, PowerId, ProvinceId, RegionId, Season, State, Unit, UnitTypeId,
};
use dip_text::{format_position, parse_position};
use proptest::prelude::*;
use std::sync::OnceLock;

fn standard() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| dip_variants::standard().map)
}

/// The state placing each entry by hand builds (what every reader did
/// before `from_position`): later entries for a province win.
fn by_hand(map: &Map, p: &Position) -> State {
    let mut st = State::empty(map, p.phase);
    for &u in &p.units {
        st.place(map, u);
    }
    for &d in &p.dislodged {
        st.set_dislodged(map, d);
    }
    for s in &p.standoffs {
        st.standoffs.insert(s.index());
    }
    match &p.owners {
        None => st.own_home_centers(map),
        Some(o) => o.iter().for_each(|&(w, c)| st.set_owner(c, Some(w))),
    }
    st
}

#[test]
fn every_bundled_start_is_the_state_its_position_builds() {
    for (name, source) in dip_variants::bundled() {
        let v = dip_variants::load(name).unwrap();
        let position = Position::of(&v.start);
        assert_eq!(State::from_position(&v.map, &position).as_ref(), Ok(&v.start), "{name}");
        assert_eq!(by_hand(&v.map, &position), v.start, "{name}");
        let written = format_position(&v.map, &v.start);
        assert_eq!(parse_position(&v.map, &written, name).as_ref(), Ok(&v.start), "{name}");
        // A start without `owner` lines owns the home centres: the same
        // state as owners not given at all.
        if !source.lines().any(|l| l.trim_start().starts_with("owner ")) {
            let homes = Position {
                owners: None,
                ..position.clone()
            };
            assert_eq!(State::from_position(&v.map, &homes).as_ref(), Ok(&v.start), "{name}");
        }
    }
}

#[test]
fn two_dislodged_units_in_one_province_are_refused_not_one_dropped() {
    // The second used to replace the first without a word.
    let map = standard();
    let text = "phase spring 1901 retreat\nunits\n  Germany: A mun\ndislodged\n  France: A mun from bur\n\
                \n  Austria: A mun from tyr\n";
    let e = parse_position(map, text, "t.pos").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.pos:7: a second dislodged unit in the same province: `Austria: A mun`"
    );
}

#[test]
fn ids_the_map_does_not_have_are_named_not_a_panic() {
    let map = standard();
    let mut p = Position::new(Phase::new(1901, Season::Spring, PhaseKind::Movement));
    let ok = Unit {
        power: PowerId(0),
        kind: UnitTypeId(0),
        region: map.main_region(map.find_province("vie").unwrap()),
    };
    p.units.push(Unit {
        power: PowerId(99),
        ..ok
    });
    p.units.push(Unit {
        region: RegionId(9999),
        ..ok
    });
    p.units.push(ok);
    p.dislodged.push(Dislodged {
        unit: ok,
        attacker_from: ProvinceId(9999),
        by_convoy: false,
    });
    p.standoffs.push(ProvinceId(9999));
    p.owners = Some(vec![(PowerId(0), ProvinceId(9999)), (PowerId(42), ProvinceId(0))]);
    let e = State::from_position(map, &p).unwrap_err();
    let entries: Vec<Entry> = e.0.iter().map(|f| f.entry).collect();
    assert_eq!(
        entries,
        [
            Entry::Unit(0),
            Entry::Unit(1),
            Entry::Dislodged(0),
            Entry::Standoff(0),
            Entry::Owner(0),
            Entry::Owner(1)
        ]
    );
    assert_eq!(e.0[0].message, "no power 99 on the map");
    assert_eq!(e.0[1].message, "no region 9999 on the map");
}

/// A random position on the standard map: units of any power, type and
/// region (some that cannot stand there, some sharing a province).
fn position() -> impl Strategy<Value = Position> {
    let map = standard();
    let (powers, kinds, regions, provinces) = (
        map.powers().len() as u8,
        map.unit_types().len() as u8,
        map.num_regions() as u16,
        map.num_provinces() as u16,
    );
    let unit = (0..powers, 0..kinds, 0..regions).prop_map(|(p, k, r)| Unit {
        power: PowerId(p),
        kind: UnitTypeId(k),
        region: RegionId(r),
    });
    (
        proptest::collection::vec(unit.clone(), 0..30),
        proptest::collection::vec((unit, 0..provinces, any::<bool>()), 0..4),
        proptest::collection::vec(0..provinces, 0..3),
        proptest::option::of(proptest::collection::vec((0..powers, 0..provinces), 0..20)),
    )
        .prop_map(|(units, dislodged, standoffs, owners)| Position {
            phase: Phase::new(1901, Season::Fall, PhaseKind::Retreat),
            units,
            dislodged: dislodged
                .into_iter()
                .map(|(unit, from, by_convoy)| Dislodged {
                    unit,
                    attacker_from: ProvinceId(from),
                    by_convoy,
                })
                .collect(),
            standoffs: standoffs.into_iter().map(ProvinceId).collect(),
            owners: owners.map(|o| o.into_iter().map(|(w, c)| (PowerId(w), ProvinceId(c))).collect()),
        })
}

/// The entries a map cannot hold: a unit where its type cannot stand, or
/// a second (dislodged) unit in a province.
fn refused(map: &Map, p: &Position) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut check = |units: Vec<Unit>, entry: fn(usize) -> Entry| {
        let mut seen = Vec::new();
        for (i, u) in units.into_iter().enumerate() {
            if !map.allows(u.region, u.kind) {
                out.push(entry(i));
                continue;
            }
            let q = map.province_of(u.region);
            if seen.contains(&q) {
                out.push(entry(i));
            }
            seen.push(q);
        }
    };
    check(p.units.clone(), Entry::Unit);
    check(p.dislodged.iter().map(|d| d.unit).collect(), Entry::Dislodged);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A position the map holds builds what placing it by hand built, and
    /// reads back from its text; one it cannot hold is refused entry by
    /// entry, exactly at the entries it cannot hold.
    #[test]
    fn from_position_is_placing_by_hand_or_names_what_it_refuses(p in position()) {
        let map = standard();
        let bad = refused(map, &p);
        match State::from_position(map, &p) {
            Ok(st) => {
                prop_assert!(bad.is_empty());
                prop_assert_eq!(&st, &by_hand(map, &p));
                let again = State::from_position(map, &Position::of(&st));
                prop_assert_eq!(again.as_ref(), Ok(&st));
            }
            Err(e) => {
                let got: Vec<Entry> = e.0.iter().map(|f| f.entry).collect();
                prop_assert_eq!(got, bad);
            }
        }
    }
}
