//! Every legal order for a unit, for menus, bots and random play. Candidates
//! are generated from the map and kept only if the phase's checks accept them,
//! so this list and the adjudicator never disagree.

use crate::adjustment::{balance, can_build_in};
use crate::ids::{PowerId, ProvinceId};
use crate::map::Map;
use crate::order::{CoastSpec, Dest, Order, OrderKind, UnitRef};
use crate::retreat::retreat_options;
use crate::rules::Ruleset;
use crate::state::{PhaseKind, State};

fn dest_of(map: &Map, r: crate::ids::RegionId) -> Dest {
    let p = map.province_of(r);
    if map.region(r).coast.is_some() {
        Dest::coast(p, r)
    } else {
        Dest::new(p)
    }
}

/// Legal orders for the unit in province `p` (movement or retreat phase),
/// given by its owner.
pub fn legal_orders(map: &Map, state: &State, rules: &Ruleset, p: ProvinceId) -> Vec<Order> {
    match state.phase.kind {
        PhaseKind::Movement => movement_orders(map, state, rules, p),
        PhaseKind::Retreat => retreat_orders(map, state, rules, p),
        PhaseKind::Adjustment => Vec::new(),
    }
}

fn movement_orders(map: &Map, state: &State, rules: &Ruleset, p: ProvinceId) -> Vec<Order> {
    let Some(unit) = state.unit(p) else {
        return Vec::new();
    };
    let me = UnitRef::new(Some(unit.kind), p);
    let mut cands = vec![OrderKind::Hold(me)];
    for e in map.edges(unit.kind, unit.region) {
        cands.push(OrderKind::Move(me, dest_of(map, e.to), false));
    }
    if map.unit_type(unit.kind).convoyable {
        for q in map.province_ids() {
            if q != p && crate::convoy::route_possible(map, state, p, q) {
                cands.push(OrderKind::Move(me, Dest::new(q), true));
            }
        }
    }
    for (q, other) in state.units() {
        if q == p {
            continue;
        }
        let them = UnitRef::new(Some(other.kind), q);
        if map.reaches(unit.kind, unit.region, q) {
            cands.push(OrderKind::SupportHold(me, them));
        }
        for dest in map.province_ids() {
            if dest != q && dest != p && map.reaches(unit.kind, unit.region, dest) {
                cands.push(OrderKind::SupportMove(me, them, Dest::new(dest)));
            }
        }
        if map.unit_type(unit.kind).can_convoy && map.unit_type(other.kind).convoyable && map.is_convoy_space(p) {
            for dest in map.province_ids() {
                if dest != q && crate::convoy::on_route(map, state, q, dest, p) {
                    cands.push(OrderKind::Convoy(me, them, Dest::new(dest)));
                }
            }
        }
    }
    keep_legal(cands, unit.power, |o| {
        crate::movement::check_order(map, state, rules, o)
    })
}

fn retreat_orders(map: &Map, state: &State, rules: &Ruleset, p: ProvinceId) -> Vec<Order> {
    let Some(d) = state.dislodged(p) else {
        return Vec::new();
    };
    let me = UnitRef::new(Some(d.unit.kind), p);
    let mut out: Vec<Order> = retreat_options(map, state, rules, &d)
        .into_iter()
        .map(|r| Order::new(d.unit.power, OrderKind::Retreat(me, dest_of(map, r))))
        .collect();
    out.push(Order::new(d.unit.power, OrderKind::Disband(me)));
    out
}

/// Legal adjustment orders of one power.
pub fn adjustment_orders(map: &Map, state: &State, power: PowerId) -> Vec<Order> {
    adjustment_orders_with_balance(map, state, power, balance(map, state, power))
}

/// [`adjustment_orders`] of `power`, whose `balance` is known (see
/// `adjustment::balances`, every power's in one pass): builds in its free
/// owned centres then a WAIVE, or disbands of its units.
pub fn adjustment_orders_with_balance(map: &Map, state: &State, power: PowerId, balance: i32) -> Vec<Order> {
    let mut out = Vec::new();
    if balance > 0 {
        for &sc in map.supply_centers() {
            if !can_build_in(map, state, power, sc) {
                continue;
            }
            let terrain = map.province(sc).terrain;
            for kind in map.unit_type_ids() {
                if !map.unit_type(kind).builds_on.contains(terrain) {
                    continue;
                }
                for r in map.regions_for(sc, kind) {
                    let coast = if map.region(r).coast.is_some() {
                        CoastSpec::Coast(r)
                    } else {
                        CoastSpec::None
                    };
                    out.push(Order::new(
                        power,
                        OrderKind::Build(UnitRef::new(Some(kind), sc).with_coast(coast)),
                    ));
                }
            }
        }
        out.push(Order::new(power, OrderKind::Waive));
    } else if balance < 0 {
        for (p, u) in state.units() {
            if u.power == power {
                out.push(Order::new(power, OrderKind::Disband(UnitRef::new(Some(u.kind), p))));
            }
        }
    }
    out
}

fn keep_legal(cands: Vec<OrderKind>, power: PowerId, ok: impl Fn(&Order) -> bool) -> Vec<Order> {
    cands
        .into_iter()
        .map(|k| Order::new(power, k))
        .filter(|o| ok(o))
        .collect()
}
