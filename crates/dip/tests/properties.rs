//! Invariants of the adjudicator on random positions and random orders:
//! it never panics, always terminates, and does not care in which order
//! the orders are given.

use dip_core::random::{random_orders, Rng};
use dip_core::{
    game, movement, CoastSpec, Dest, Map, Order, OrderKind, PhaseKind, PowerId, ProvinceId, State, Unit, UnitRef,
    UnitTypeId,
};
use proptest::prelude::*;

fn standard() -> dip_variants::Variant {
    dip_variants::standard()
}

/// A random position: units of random powers and types on random regions.
fn random_state(map: &Map, seed: u64, density: f32) -> State {
    let mut rng = Rng::with_seed(seed);
    let mut state = State::empty(
        map,
        dip_core::Phase::new(1901, dip_core::Season::Spring, PhaseKind::Movement),
    );
    for p in map.province_ids() {
        if rng.f32() > density {
            continue;
        }
        let kind = UnitTypeId(rng.below(map.unit_types().len()) as u8);
        let regions: Vec<_> = map.regions_for(p, kind).collect();
        if regions.is_empty() {
            continue;
        }
        let region = regions[rng.below(regions.len())];
        let power = PowerId(rng.below(map.powers().len()) as u8);
        state.place(map, Unit { power, kind, region });
    }
    state.own_home_centers(map);
    state
}

/// Orders that are mostly nonsense: any power, any unit, any province.
fn garbage_orders(map: &Map, rng: &mut Rng, n: usize) -> Vec<Order> {
    let np = map.num_provinces();
    let prov = |rng: &mut Rng| ProvinceId(rng.below(np) as u16);
    let coast = |rng: &mut Rng| match rng.below(4) {
        0 => CoastSpec::Unknown,
        1 => CoastSpec::Coast(dip_core::RegionId(rng.below(map.num_regions()) as u16)),
        _ => CoastSpec::None,
    };
    (0..n)
        .map(|_| {
            let power = PowerId(rng.below(map.powers().len()) as u8);
            let kind = (rng.below(3) > 0).then(|| UnitTypeId(rng.below(map.unit_types().len()) as u8));
            let u = UnitRef::new(kind, prov(rng)).with_coast(coast(rng));
            let t = UnitRef::new(None, prov(rng));
            let d = Dest {
                province: prov(rng),
                coast: coast(rng),
            };
            let k = match rng.below(9) {
                0 => OrderKind::Hold(u),
                1 => OrderKind::Move(u, d, rng.below(2) == 0),
                2 => OrderKind::SupportHold(u, t),
                3 => OrderKind::SupportMove(u, t, d),
                4 => OrderKind::Convoy(u, t, d),
                5 => OrderKind::Retreat(u, d),
                6 => OrderKind::Disband(u),
                7 => OrderKind::Build(u),
                _ => OrderKind::Waive,
            };
            Order::new(power, k)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Any orders on any position: no panic, in every phase kind.
    #[test]
    fn garbage_never_panics(seed in any::<u64>(), density in 0.1f32..0.9, n in 0usize..60) {
        let v = standard();
        let map = &v.map;
        let mut rng = Rng::with_seed(seed ^ 0x5eed);
        let mut state = random_state(map, seed, density);
        for kind in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
            state.phase.kind = kind;
            let orders = garbage_orders(map, &mut rng, n);
            let outcome = game::adjudicate(map, &state, &orders, &v.rules);
            prop_assert_eq!(outcome.orders().len(), orders.len());
            let _ = game::advance(map, &state, &outcome);
        }
    }

    /// Shuffling the orders does not change any verdict.
    #[test]
    fn order_of_orders_does_not_matter(seed in any::<u64>(), density in 0.2f32..0.8) {
        let v = standard();
        let map = &v.map;
        let state = random_state(map, seed, density);
        let mut rng = Rng::with_seed(seed);
        let orders = random_orders(map, &state, &v.rules, &mut rng);
        let a = movement::adjudicate(map, &state, &orders, &v.rules);
        let mut idx: Vec<usize> = (0..orders.len()).collect();
        rng.shuffle(&mut idx);
        let shuffled: Vec<Order> = idx.iter().map(|&i| orders[i]).collect();
        let b = movement::adjudicate(map, &state, &shuffled, &v.rules);
        for (k, &i) in idx.iter().enumerate() {
            prop_assert_eq!(a.orders[i], b.orders[k]);
        }
        prop_assert_eq!(a.dislodged.len(), b.dislodged.len());
        prop_assert_eq!(game::advance(map, &state, &game::PhaseOutcome::Movement(a)),
                        game::advance(map, &state, &game::PhaseOutcome::Movement(b)));
    }

    /// Whole random games under every preset: units never share a province,
    /// centres never exceed the map's, and every game moves on.
    #[test]
    fn random_games_stay_consistent(seed in any::<u64>(), preset in prop::sample::select(vec!["datc", "2023", "2000", "1982", "1971", "dipwork"])) {
        let v = standard();
        let map = &v.map;
        let rules = dip_core::Ruleset::parse(preset).unwrap();
        let mut rng = Rng::with_seed(seed);
        let mut state = v.start.clone();
        for _ in 0..40 {
            let before = state.phase;
            let orders = random_orders(map, &state, &rules, &mut rng);
            let outcome = game::adjudicate(map, &state, &orders, &rules);
            state = game::advance(map, &state, &outcome);
            prop_assert!(state.phase > before, "the phase must advance");
            let owned: usize = map.power_ids().map(|p| state.center_count(map, p)).sum();
            prop_assert!(owned <= map.supply_centers().len());
            for (p, u) in state.units() {
                prop_assert_eq!(map.province_of(u.region), p);
                prop_assert!(map.allows(u.region, u.kind));
            }
            if state.phase.kind == PhaseKind::Movement {
                prop_assert!(state.all_dislodged().next().is_none());
            }
        }
    }
}

/// Every order `legal_orders` lists is accepted by the adjudicator, and a
/// random order not in the list is refused.
#[test]
fn legal_orders_agree_with_validation() {
    let v = standard();
    let map = &v.map;
    for seed in 0..30 {
        let state = random_state(map, seed, 0.4);
        for (p, u) in state.units() {
            let legal = dip_core::legal::legal_orders(map, &state, &v.rules, p);
            assert!(!legal.is_empty());
            for o in &legal {
                assert_eq!(o.power, u.power);
                assert!(
                    movement::check_order(map, &state, &v.rules, o),
                    "{}",
                    o.to_short_string(map)
                );
            }
        }
    }
}

#[test]
fn standard_start_has_legal_moves() {
    let v = standard();
    let map = &v.map;
    let par = map.find_province("par").unwrap();
    let legal = dip_core::legal::legal_orders(map, &v.start, &v.rules, par);
    let texts: Vec<String> = legal.iter().map(|o| o.to_short_string(map)).collect();
    for want in [
        "A par H",
        "A par - bur",
        "A par - pic",
        "A par - gas",
        "A par - bre",
        "A par S A mar - bur",
    ] {
        assert!(texts.iter().any(|t| t == want), "missing {want} in {texts:?}");
    }
    assert!(!texts.iter().any(|t| t == "A par - mar"));
}

#[test]
fn convoy_dest_is_listed() {
    let v = standard();
    let map = &v.map;
    let mut state = State::empty(map, v.start.phase);
    let lon = map.find_province("lon").unwrap();
    let nth = map.find_province("nth").unwrap();
    let army = map.find_unit_type("A").unwrap();
    let fleet = map.find_unit_type("F").unwrap();
    state.place(
        map,
        Unit {
            power: PowerId(0),
            kind: army,
            region: map.main_region(lon),
        },
    );
    state.place(
        map,
        Unit {
            power: PowerId(0),
            kind: fleet,
            region: map.main_region(nth),
        },
    );
    let legal = dip_core::legal::legal_orders(map, &state, &v.rules, lon);
    let texts: Vec<String> = legal.iter().map(|o| o.to_short_string(map)).collect();
    assert!(texts.iter().any(|t| t == "A lon - nwy via convoy"), "{texts:?}");
    let legal = dip_core::legal::legal_orders(map, &state, &v.rules, nth);
    let texts: Vec<String> = legal.iter().map(|o| o.to_short_string(map)).collect();
    assert!(texts.iter().any(|t| t == "F nth C A lon - nwy"), "{texts:?}");
}
