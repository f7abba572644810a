//! Checks the orders of a movement phase against the position (DATC 4.B,
//! 4.C, 4.D.3, 4.E.1) and builds one [`Slot`] per unit.

use super::board::{Act, Route, Slot};
use crate::convoy;
use crate::ids::{BitSet, PowerId, ProvinceId, RegionId, UnitTypeId};
use crate::map::{EdgeFlags, Map, OrderClass};
use crate::order::{CoastSpec, Dest, Order, OrderKind, UnitRef};
use crate::outcome::Illegal;
use crate::rules::{ConvoyAdjacent, Duplicates, Ruleset, SupportCoast};
use crate::state::{State, Unit};

/// Finds the ordered unit and checks the power may order it.
pub(crate) fn ordered_unit(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    power: PowerId,
    u: &UnitRef,
) -> Result<Unit, Illegal> {
    let unit = state.unit(u.province).ok_or(Illegal::NoSuchUnit)?;
    if unit.power != power && !rules.proxy_orders {
        return Err(Illegal::ForeignUnit);
    }
    check_unit_type(rules, unit, u)?;
    check_unit_coast(map, rules, unit, u)?;
    Ok(unit)
}

/// 4.C.1 and 4.C.2: a missing or wrong unit type.
pub(crate) fn check_unit_type(rules: &Ruleset, unit: Unit, u: &UnitRef) -> Result<(), Illegal> {
    match u.kind {
        None if !rules.missing_unit_type_valid => Err(Illegal::WrongUnitType),
        Some(k) if k != unit.kind && !rules.wrong_unit_type_valid => Err(Illegal::WrongUnitType),
        _ => Ok(()),
    }
}

/// 4.B.5 and 4.B.6: a wrong or meaningless coast on the ordered unit.
pub(crate) fn check_unit_coast(map: &Map, rules: &Ruleset, unit: Unit, u: &UnitRef) -> Result<(), Illegal> {
    match u.coast {
        CoastSpec::None => Ok(()),
        CoastSpec::Coast(r) if r == unit.region => Ok(()),
        CoastSpec::Coast(_) if !map.unit_type(unit.kind).uses_coasts => {
            if rules.unknown_coast_fails {
                Err(Illegal::UnknownCoast)
            } else {
                Ok(())
            }
        }
        CoastSpec::Coast(_) => {
            if rules.wrong_unit_coast_fails {
                Err(Illegal::WrongUnitCoast)
            } else {
                Ok(())
            }
        }
        CoastSpec::Unknown => {
            if rules.unknown_coast_fails {
                Err(Illegal::UnknownCoast)
            } else {
                Ok(())
            }
        }
    }
}

/// The region a unit moves to, by the coast rules (4.B.1–4.B.3, 4.B.6).
/// `Ok(None)`: not reachable over a border (maybe by convoy).
pub(crate) fn target_region(map: &Map, rules: &Ruleset, unit: Unit, dest: &Dest) -> Result<Option<RegionId>, Illegal> {
    let ut = map.unit_type(unit.kind);
    if !ut.uses_coasts {
        if matches!(dest.coast, CoastSpec::Unknown | CoastSpec::Coast(_)) && rules.unknown_coast_fails {
            return Err(Illegal::UnknownCoast);
        }
        let r = map.main_region(dest.province);
        if !map.allows(r, unit.kind) {
            return Err(Illegal::Unreachable);
        }
        return Ok(map.adjacent(unit.kind, unit.region, r).then_some(r));
    }
    let mut reachable = map.moves_into(unit.kind, unit.region, dest.province);
    let first = reachable.next();
    let second = reachable.next();
    let split = !map.coasts(dest.province).is_empty();
    match dest.coast {
        CoastSpec::Coast(c) => {
            if map.adjacent(unit.kind, unit.region, c) {
                Ok(Some(c))
            } else if first.is_none() {
                Err(Illegal::Unreachable)
            } else if rules.impossible_coast_ignored && second.is_none() {
                Ok(first)
            } else {
                Err(Illegal::ImpossibleCoast)
            }
        }
        CoastSpec::Unknown if rules.unknown_coast_fails => Err(Illegal::UnknownCoast),
        CoastSpec::None | CoastSpec::Unknown => match (first, second) {
            (None, _) => Err(Illegal::Unreachable),
            (Some(_), Some(_)) => Err(Illegal::AmbiguousCoast),
            (Some(_), None) if split && rules.missing_coast_fails => Err(Illegal::MissingCoast),
            (Some(r), None) => Ok(Some(r)),
        },
    }
}

/// Can the unit in `from` ever get to `to` (over a border or by a convoy
/// that does not need the supporter in `supporter`)?
fn can_reach(map: &Map, state: &State, unit: Unit, from: ProvinceId, to: ProvinceId, supporter: ProvinceId) -> bool {
    if from == to {
        return false;
    }
    if map.moves_into(unit.kind, unit.region, to).next().is_some() {
        return true;
    }
    map.unit_type(unit.kind).convoyable
        && map.allows(map.main_region(to), unit.kind)
        && convoy::route_possible_without(map, state, from, to, supporter)
}

/// Checks one order of a movement phase. The route of a move to an adjacent
/// province that could also be convoyed is settled later (`settle_routes`).
///
/// `offered_convoy`: provinces of units that some order offers to convoy.
pub(crate) fn check(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    offered_convoy: &BitSet,
    order: &Order,
) -> Result<(ProvinceId, Act), Illegal> {
    let u = order.unit().ok_or(Illegal::WrongPhase)?;
    let act = match order.kind {
        OrderKind::Retreat(..) | OrderKind::Disband(_) | OrderKind::Build(_) | OrderKind::Waive => {
            return Err(Illegal::WrongPhase)
        }
        _ => {
            let unit = ordered_unit(map, state, rules, order.power, &u)?;
            check_act(map, state, rules, offered_convoy, unit, u.province, &order.kind)?
        }
    };
    Ok((u.province, act))
}

fn check_act(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    offered_convoy: &BitSet,
    unit: Unit,
    at: ProvinceId,
    kind: &OrderKind,
) -> Result<Act, Illegal> {
    match *kind {
        OrderKind::Hold(_) => Ok(Act::Hold),
        OrderKind::Move(_, dest, via) => check_move(map, state, rules, offered_convoy, unit, at, dest, via),
        OrderKind::SupportHold(_, target) => check_support_hold(map, state, unit, at, target),
        OrderKind::SupportMove(_, target, dest) => check_support_move(map, state, unit, at, target, dest),
        OrderKind::Convoy(_, army, dest) => check_convoy(map, state, unit, at, army, dest),
        _ => Err(Illegal::WrongPhase),
    }
}

/// A move: not to itself, across no closed border, to a region the unit
/// reaches or by a convoy route that could exist.
#[allow(clippy::too_many_arguments)]
#[inline]
fn check_move(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    offered_convoy: &BitSet,
    unit: Unit,
    at: ProvinceId,
    dest: Dest,
    via: bool,
) -> Result<Act, Illegal> {
    let ut = map.unit_type(unit.kind);
    if dest.province == at {
        return Err(Illegal::MoveToSelf);
    }
    if closed(
        map,
        state,
        &[(at, None), (dest.province, Some(at))],
        unit.kind,
        OrderClass::Move,
    ) {
        return Err(Illegal::ClosedBorder);
    }
    // Searching for a convoy route costs; only moves that need one, or
    // that some fleet offers to convoy, look for it.
    let convoy_possible = || {
        ut.convoyable
            && map.allows(map.main_region(dest.province), unit.kind)
            && convoy::route_possible(map, state, at, dest.province)
    };
    match target_region(map, rules, unit, &dest) {
        Ok(Some(r)) => {
            let weak = map.has_edge_flags()
                && map
                    .edge_flags(unit.kind, unit.region, r)
                    .is_some_and(|f| f.has(EdgeFlags::WEAK_MOVE));
            let route = if via && ut.convoyable && rules.convoy_adjacent != ConvoyAdjacent::Rule1971 {
                Route::Convoy
            } else if offered_convoy.contains(at.index()) && convoy_possible() {
                Route::Either
            } else {
                Route::Land
            };
            let change = if route == Route::Convoy {
                0
            } else {
                map.strength_change(dest.province, at).clamp(-100, 100) as i8
            };
            Ok(Act::Move {
                to: r,
                to_p: dest.province,
                route,
                weak,
                change,
            })
        }
        Ok(None) | Err(Illegal::Unreachable) if convoy_possible() => Ok(Act::Move {
            to: map.main_region(dest.province),
            to_p: dest.province,
            route: Route::Convoy,
            weak: false,
            change: 0,
        }),
        Ok(None) => Err(Illegal::Unreachable),
        Err(e) => Err(e),
    }
}

/// A support to hold: of another unit, in a province the supporter could
/// move to, across no closed border.
#[inline]
fn check_support_hold(map: &Map, state: &State, unit: Unit, at: ProvinceId, target: UnitRef) -> Result<Act, Illegal> {
    if target.province == at {
        return Err(Illegal::SelfReference);
    }
    let supported = state.unit(target.province).ok_or(Illegal::NoUnitToSupport)?;
    if !map.reaches(unit.kind, unit.region, target.province) {
        return Err(Illegal::CannotSupport);
    }
    if support_closed(map, state, unit, at, supported, target.province, None) {
        return Err(Illegal::ClosedBorder);
    }
    Ok(Act::SupportHold {
        target: target.province,
    })
}

/// A support of a move: of another unit, into a province the supporter
/// could move to, a move the supported unit could make.
#[inline]
fn check_support_move(
    map: &Map,
    state: &State,
    unit: Unit,
    at: ProvinceId,
    target: UnitRef,
    dest: Dest,
) -> Result<Act, Illegal> {
    if target.province == at {
        return Err(Illegal::SelfReference);
    }
    let supported = state.unit(target.province).ok_or(Illegal::NoUnitToSupport)?;
    if !map.reaches(unit.kind, unit.region, dest.province) {
        return Err(Illegal::CannotSupport);
    }
    if !can_reach(map, state, supported, target.province, dest.province, at) {
        return Err(Illegal::ImpossibleSupportedMove);
    }
    if support_closed(map, state, unit, at, supported, target.province, Some(dest.province)) {
        return Err(Illegal::ClosedBorder);
    }
    let coast = match dest.coast {
        CoastSpec::Coast(r) => Some(r),
        _ => None,
    };
    Ok(Act::SupportMove {
        target: target.province,
        to: dest.province,
        coast,
    })
}

/// A convoy: by a fleet at sea, of an army that may be convoyed, on some
/// route between the army and its destination, across no closed border.
#[inline]
fn check_convoy(
    map: &Map,
    state: &State,
    unit: Unit,
    at: ProvinceId,
    army: UnitRef,
    dest: Dest,
) -> Result<Act, Illegal> {
    let ut = map.unit_type(unit.kind);
    if !ut.can_convoy || !map.is_convoy_space(at) {
        return Err(Illegal::CannotConvoy);
    }
    let carried = state.unit(army.province).ok_or(Illegal::NoUnitToSupport)?;
    if !map.unit_type(carried.kind).convoyable {
        return Err(Illegal::NotConvoyable);
    }
    if army.province == dest.province || !map.allows(map.main_region(dest.province), carried.kind) {
        return Err(Illegal::NotOnRoute);
    }
    if !convoy::on_route(map, state, army.province, dest.province, at) {
        return Err(Illegal::NotOnRoute);
    }
    if closed(map, state, &[(at, None)], unit.kind, OrderClass::Convoy)
        || closed(
            map,
            state,
            &[(army.province, None), (dest.province, None)],
            carried.kind,
            OrderClass::Convoy,
        )
    {
        return Err(Illegal::ClosedBorder);
    }
    Ok(Act::Convoy {
        army: army.province,
        to: dest.province,
    })
}

/// Does a border rule of one of these provinces (with where a move into it
/// comes from) refuse the order now?
fn closed(
    map: &Map,
    state: &State,
    looks: &[(ProvinceId, Option<ProvinceId>)],
    ut: UnitTypeId,
    class: OrderClass,
) -> bool {
    !map.border_rules().is_empty()
        && looks
            .iter()
            .any(|&(p, from)| map.closed(p, from, ut, class, state.phase))
}

/// Is a support refused by border rules: of the supporter's province, the
/// supported unit's, and the province supported into; or given over a
/// border that weakens moves (DATC 2.4 10.E: no support over a difficult
/// passable border)?
fn support_closed(
    map: &Map,
    state: &State,
    supporter: Unit,
    at: ProvinceId,
    supported: Unit,
    target: ProvinceId,
    dest: Option<ProvinceId>,
) -> bool {
    if map.border_rules().is_empty() {
        return false;
    }
    let into = dest.unwrap_or(target);
    closed(map, state, &[(at, None)], supporter.kind, OrderClass::Support)
        || closed(map, state, &[(target, None)], supported.kind, OrderClass::Support)
        || dest.is_some_and(|d| closed(map, state, &[(d, None)], supported.kind, OrderClass::Support))
        || map.strength_change(into, at) < 0
}

/// Settles moves that could go over a border or by convoy (4.A.3), now that
/// every convoy order is known.
pub(crate) fn settle_routes(rules: &Ruleset, slots: &mut [Slot], slot_of: &[u16]) {
    for i in 0..slots.len() {
        let Act::Move {
            route: Route::Either,
            to_p,
            ..
        } = slots[i].act
        else {
            continue;
        };
        let from = slots[i].province;
        let power = slots[i].power;
        let own_convoy = slots
            .iter()
            .any(|s| s.power == power && matches!(s.act, Act::Convoy { army, to } if army == from && to == to_p));
        let route = match rules.convoy_adjacent {
            ConvoyAdjacent::Rule2023 | ConvoyAdjacent::Rule1982 => {
                if own_convoy {
                    Route::Convoy
                } else {
                    Route::Land
                }
            }
            ConvoyAdjacent::Dptg => Route::Land,
            ConvoyAdjacent::Rule1971 => {
                // Only a swap can make it a convoy: the unit there must move here.
                let swap = slot_of
                    .get(to_p.index())
                    .and_then(|&j| slots.get(j as usize))
                    .is_some_and(|o| matches!(o.act, Act::Move { to_p: back, .. } if back == from));
                if swap {
                    Route::Either
                } else {
                    Route::Land
                }
            }
        };
        if let Act::Move { route: r, .. } = &mut slots[i].act {
            *r = route;
        }
    }
}

/// Does a support or convoy order match the order of the unit it names?
pub(crate) fn matches(map: &Map, rules: &Ruleset, slots: &[Slot], slot_of: &[u16], s: &Slot) -> bool {
    let target_slot = |p: ProvinceId| slot_of.get(p.index()).and_then(|&j| slots.get(j as usize));
    match s.act {
        Act::SupportHold { target } => target_slot(target).is_some_and(|t| !matches!(t.act, Act::Move { .. })),
        Act::SupportMove { target, to, coast } => {
            let Some(t) = target_slot(target) else {
                return false;
            };
            let Act::Move { to: moved_to, to_p, .. } = t.act else {
                return false;
            };
            if to_p != to {
                return false;
            }
            let split_target = map.region(moved_to).coast.is_some();
            match coast {
                Some(c) => c == moved_to || !split_target,
                None => match rules.support_coast {
                    SupportCoast::Lenient => true,
                    SupportCoast::OwnOnly => !split_target || t.power == s.power,
                    SupportCoast::Strict => !split_target,
                },
            }
        }
        Act::Convoy { army, to } => target_slot(army).is_some_and(
            |t| matches!(t.act, Act::Move { to_p, route: Route::Convoy | Route::Either, .. } if to_p == to),
        ),
        _ => true,
    }
}

/// How to treat several orders for one unit (4.D.3).
pub(crate) fn pick_duplicate(rules: &Ruleset, first: usize, this: usize) -> Option<usize> {
    match rules.duplicates {
        Duplicates::First => Some(first),
        Duplicates::Last => Some(this),
        Duplicates::Hold => None,
    }
}
