//! Every bundled variant loads, passes the linter, survives a native
//! write/read round trip and plays 20 random full games to their end.

use dip_core::game::{adjudicate, advance, winner};
use dip_core::random::{random_orders, Rng};

#[test]
fn every_bundled_variant_lints_clean_and_plays_20_random_games() {
    let names: Vec<&str> = dip_variants::bundled().iter().map(|(n, _)| *n).collect();
    for required in [
        "standard", "1898", "pure", "britain", "chaos", "crowded", "nocoasts", "seismic",
    ] {
        assert!(names.contains(&required), "{required} is not bundled");
    }
    for name in names {
        let v = dip_variants::load(name).unwrap_or_else(|e| panic!("{e}"));
        let findings = dip_variants::lint::lint(&v);
        assert!(findings.is_empty(), "{name}: {findings:?}");
        // Native round trip: the same map.
        let again = dip_variants::parse(&dip_variants::to_native(&v), name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(dip_variants::to_native(&again), dip_variants::to_native(&v), "{name}");
        let mut rng = Rng::with_seed(7);
        let mut ended = 0;
        for _ in 0..20 {
            let mut state = v.start.clone();
            let end = state.phase.year + 60;
            while state.phase.year < end && winner(&v.map, &state).is_none() {
                let orders = random_orders(&v.map, &state, &v.rules, &mut rng);
                let out = adjudicate(&v.map, &state, &orders, &v.rules);
                state = advance(&v.map, &state, &out);
                if state.units().next().is_none() && state.phase.kind == dip_core::PhaseKind::Movement {
                    break;
                }
            }
            ended += 1;
        }
        assert_eq!(ended, 20);
    }
}

#[test]
fn chaos_has_34_powers_with_one_home_each_and_crowded_11_with_a_centre_in_ruhr() {
    let c = dip_variants::load("chaos").unwrap();
    assert_eq!(c.map.powers().len(), 34);
    for p in c.map.power_ids() {
        assert_eq!(
            c.map.supply_centers().iter().filter(|&&s| c.map.is_home(s, p)).count(),
            1
        );
    }
    assert_eq!(c.map.build_rule, dip_core::map::BuildRule::Chaos);
    let w = dip_variants::load("crowded").unwrap();
    assert_eq!(w.map.powers().len(), 11);
    let ruh = w.map.find_province("ruh").unwrap();
    assert!(w.map.province(ruh).supply_center);
    assert_eq!(w.map.supply_centers().len(), 35);
    let p = dip_variants::load("pure").unwrap();
    assert_eq!(p.map.victory_centers(), 4);
    let n = dip_variants::load("nocoasts").unwrap();
    assert!(n.map.province_ids().all(|p| n.map.coasts(p).is_empty()));
}

/// Generated maps of many sizes build, lint clean and survive a native round trip.
#[test]
fn generated_maps_lint_clean() {
    let mut rng = fastrand::Rng::with_seed(4);
    for _ in 0..25 {
        let (n, p, seed) = (rng.usize(12..260), rng.usize(2..25), rng.u64(..));
        let m = dip_variants::generate::grid(n, p.min(n / 4), seed);
        let v = m.build("grid").unwrap_or_else(|e| panic!("{n} {p} {seed}: {e}"));
        assert_eq!(v.map.num_provinces(), n);
        assert_eq!(
            dip_variants::lint::lint(&v),
            vec![],
            "{n} provinces, {p} powers, seed {seed}"
        );
        let again = dip_variants::parse(&dip_variants::to_native(&v), "grid").unwrap();
        assert_eq!(dip_variants::to_native(&again), dip_variants::to_native(&v));
    }
}
