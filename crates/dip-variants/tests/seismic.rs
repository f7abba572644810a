//! Map edits between turns, Pure's victory and the 1898 start.

use dip_core::game::winner;
use dip_variants::seismic::{apply, remap_state};

#[test]
fn an_earthquake_removes_and_adds_borders_and_the_result_is_linted() {
    let v = dip_variants::load("seismic").unwrap();
    let edits = "# The English Channel closes at Brest; Wales joins Picardy.\nremove-border * bre eng\nadd-border A wal pic\nadd-border F wal pic\n";
    let (nv, findings) = apply(&v, edits, "s1.edits").unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    let map = &nv.map;
    let r = |n: &str| map.main_region(map.find_province(n).unwrap());
    let (a, f) = (map.find_unit_type("A").unwrap(), map.find_unit_type("F").unwrap());
    assert!(!map.adjacent(f, r("bre"), r("eng")) && !map.adjacent(f, r("eng"), r("bre")));
    assert!(map.adjacent(a, r("wal"), r("pic")) && map.adjacent(a, r("pic"), r("wal")));
    // The game's position carries over.
    let moved = remap_state(&v, &nv, &v.start).unwrap();
    assert_eq!(moved.units().count(), v.start.units().count());
}

#[test]
fn an_edit_that_strands_a_province_is_reported_by_the_linter() {
    let v = dip_variants::load("standard").unwrap();
    let edits = "remove-border * naf mao wes tun\n";
    let (_, findings) = apply(&v, edits, "cut.edits").unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f.kind == "unreachable-province" && f.message.contains("naf")),
        "{findings:?}"
    );
}

#[test]
fn coasts_can_be_removed_and_added() {
    let v = dip_variants::load("standard").unwrap();
    let (nv, findings) = apply(&v, "remove-coasts stp\n", "a.edits").unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    let stp = nv.map.find_province("stp").unwrap();
    assert!(nv.map.coasts(stp).is_empty());
    // The Russian fleet on the south coast now stands in St Petersburg itself.
    let moved = remap_state(&v, &nv, &v.start).unwrap();
    assert_eq!(nv.map.region_name(moved.unit(stp).unwrap().region), "stp");
    let (nv2, findings) = apply(
        &nv,
        "add-coast stp/nc bar nwy\nadd-coast stp/sc bot fin lvn\n",
        "b.edits",
    )
    .unwrap();
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(nv2.map.coasts(stp).len(), 2);
}

#[test]
fn bad_edits_name_the_line() {
    let v = dip_variants::load("standard").unwrap();
    let e = apply(&v, "add-border A lon par\nremove-border A lon xyz\n", "bad.edits").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("bad.edits", 2), "{e}");
    let e = apply(&v, "shake everything\n", "bad.edits").unwrap_err();
    assert_eq!(e.line, 1);
}

#[test]
fn pure_is_won_with_four_centres() {
    let v = dip_variants::load("pure").unwrap();
    let map = &v.map;
    let mut s = v.start.clone();
    assert_eq!(winner(map, &s), None);
    let eng = map.find_power("England").unwrap();
    for c in ["par", "ber", "vie"] {
        s.set_owner(map.find_province(c).unwrap(), Some(eng));
    }
    assert_eq!(winner(map, &s), Some(eng));
}

#[test]
fn the_1898_start_has_one_unit_and_one_centre_a_power() {
    let v = dip_variants::load("1898").unwrap();
    let map = &v.map;
    assert_eq!(v.start.units().count(), 7);
    for p in map.power_ids() {
        assert_eq!(v.start.center_count(map, p), 1, "{}", map.power(p).abbr);
        assert_eq!(v.start.units().filter(|(_, u)| u.power == p).count(), 1);
    }
    assert_eq!(
        (v.start.phase.year, v.start.phase.season),
        (1899, dip_core::Season::Spring)
    );
    assert_eq!(map.victory_centers(), 18);
}

/// A seismic game: two years of play, an earthquake, two more years on the
/// new map with the position carried over.
#[test]
fn a_game_goes_on_after_an_earthquake() {
    use dip_core::game::{adjudicate, advance};
    use dip_core::random::{random_orders, Rng};
    let mut v = dip_variants::load("seismic").unwrap();
    let mut state = v.start.clone();
    let mut rng = Rng::with_seed(3);
    let mut history: Vec<(String, String)> = Vec::new();
    let quakes = [
        "remove-border * bre eng\nadd-border A wal pic\nadd-border F wal pic\n",
        "remove-border * con bla\nadd-coast bul/nc bla\n",
    ];
    for quake in quakes {
        for _ in 0..7 {
            let orders = random_orders(&v.map, &state, &v.rules, &mut rng);
            let out = adjudicate(&v.map, &state, &orders, &v.rules);
            state = advance(&v.map, &state, &out);
        }
        // Between turns (a movement phase is next): the map changes.
        let (nv, findings) = apply(&v, quake, "quake.edits").unwrap_or_else(|e| panic!("{e}"));
        assert!(findings.is_empty(), "{findings:?}");
        let (units, dislodged) = (state.units().count(), state.all_dislodged().count());
        state = remap_state(&v, &nv, &state).unwrap();
        assert_eq!(state.units().count(), units);
        assert_eq!(state.all_dislodged().count(), dislodged);
        history.push((state.phase.short(), quake.to_string()));
        v = nv;
    }
    for _ in 0..8 {
        let orders = random_orders(&v.map, &state, &v.rules, &mut rng);
        let out = adjudicate(&v.map, &state, &orders, &v.rules);
        state = advance(&v.map, &state, &out);
    }
    // Replaying the history on the starting variant gives the same map.
    let mut replay = dip_variants::load("seismic").unwrap();
    for (_, edits) in &history {
        replay = apply(&replay, edits, "history").unwrap().0;
    }
    assert_eq!(dip_variants::to_native(&replay), dip_variants::to_native(&v));
}

/// A position carried to a map that cannot hold it used to lose the units
/// it had no place for, silently; it is refused, naming what has no place.
#[test]
fn a_position_the_edited_map_cannot_hold_is_refused_not_trimmed() {
    let (standard, pure) = (dip_variants::standard(), dip_variants::load("pure").unwrap());
    let e = remap_state(&standard, &pure, &standard.start).unwrap_err();
    assert!(e.contains("the edited map has no province"), "{e}");
    // What it can hold carries over whole.
    assert!(remap_state(&pure, &pure, &pure.start).is_ok());
}
