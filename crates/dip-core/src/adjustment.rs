//! Adjustment phases (DATC 6.I, 6.J): builds, disbands, waives, civil disorder.

use crate::ids::{PowerId, ProvinceId, UnitTypeId};
use crate::map::{BuildRule, Map, OrderClass, Terrain};
use crate::movement::ordered_unit;
use crate::order::{CoastSpec, Order, OrderKind, UnitRef};
use crate::outcome::{Illegal, OrderReport, Reason, Verdict};
use crate::rules::{BuildWithoutType, CivilDisorder, Excess, ExcessDisbands, Ruleset};
use crate::state::{State, Unit};

/// The result of an adjustment phase.
#[derive(Clone, Debug)]
pub struct AdjustmentOutcome {
    pub orders: Vec<OrderReport>,
    pub built: Vec<Unit>,
    pub disbanded: Vec<ProvinceId>,
    /// Units removed by the civil disorder rule (too few disbands).
    pub civil_disorder: Vec<ProvinceId>,
}

/// Centres minus upkeep: positive means builds, negative disbands.
pub fn balance(map: &Map, state: &State, power: PowerId) -> i32 {
    state.center_count(map, power) as i32 - state.upkeep(map, power) as i32
}

/// [`balance`] of every power, indexed by power id: one pass over the
/// centres and one over the board rather than two for each power.
pub fn balances(map: &Map, state: &State) -> Vec<i32> {
    let mut bal = vec![0i32; map.powers().len()];
    for &sc in map.supply_centers() {
        if let Some(b) = state.owner(sc).and_then(|o| bal.get_mut(o.index())) {
            *b += 1;
        }
    }
    for u in state.unit_entries().iter().flatten() {
        if let Some(b) = bal.get_mut(u.power.index()) {
            *b -= map.unit_type(u.kind).cost as i32;
        }
    }
    bal
}

/// May `power` build in province `p` (ignoring unit type)?
#[inline]
pub fn can_build_in(map: &Map, state: &State, power: PowerId, p: ProvinceId) -> bool {
    // The owner first: most centres asked about are another power's.
    if state.owner(p) != Some(power) || !map.province(p).supply_center || state.unit(p).is_some() {
        return false;
    }
    match map.build_rule {
        BuildRule::Standard => map.is_home(p, power),
        BuildRule::Chaos => true,
        BuildRule::Aberration => map
            .supply_centers()
            .iter()
            .any(|&h| map.is_home(h, power) && state.owner(h) == Some(power)),
    }
}

/// The unit a build order makes (4.B.7, 4.C.3, 4.C.4).
fn build_unit(map: &Map, state: &State, rules: &Ruleset, power: PowerId, u: &UnitRef) -> Result<Unit, Illegal> {
    if !can_build_in(map, state, power, u.province) {
        return Err(Illegal::BuildNotPossible);
    }
    let prov = map.province(u.province);
    let fleet = map.unit_type_ids().find(|&k| map.unit_type(k).uses_coasts);
    let army = map.unit_type_ids().find(|&k| !map.unit_type(k).uses_coasts);
    let kind = match u.kind {
        // 4.C.4: a fleet ordered inland.
        Some(k) if Some(k) == fleet && prov.terrain == Terrain::Land && rules.fleet_build_inland_army => {
            army.ok_or(Illegal::WrongTerrain)?
        }
        Some(k) => k,
        // 4.C.3: no type written.
        None => match (rules.build_without_type, prov.terrain, u.coast) {
            (BuildWithoutType::Fails, _, _) => return Err(Illegal::WrongUnitType),
            (_, Terrain::Land, _) => army.ok_or(Illegal::WrongTerrain)?,
            (BuildWithoutType::BestEffort, Terrain::Coast, CoastSpec::Coast(_)) => {
                fleet.ok_or(Illegal::WrongTerrain)?
            }
            _ => return Err(Illegal::WrongUnitType),
        },
    };
    let ut = map.unit_type(kind);
    if !ut.builds_on.contains(prov.terrain) {
        return Err(Illegal::WrongTerrain);
    }
    if map.closed(u.province, None, kind, OrderClass::Build, state.phase) {
        return Err(Illegal::ClosedBorder);
    }
    let region = match u.coast {
        CoastSpec::Coast(r) if map.allows(r, kind) => r,
        CoastSpec::Coast(_) | CoastSpec::Unknown if ut.uses_coasts && !map.coasts(u.province).is_empty() => {
            return Err(Illegal::ImpossibleCoast)
        }
        _ => map.only_region_for(u.province, kind).ok_or(if ut.uses_coasts {
            Illegal::AmbiguousCoast
        } else {
            Illegal::WrongTerrain
        })?,
    };
    Ok(Unit { power, kind, region })
}

/// Adjudicates an adjustment phase. Ownership must already be updated.
pub fn adjudicate(map: &Map, state: &State, orders: &[Order], rules: &Ruleset) -> AdjustmentOutcome {
    let mut verdicts: Vec<Option<Verdict>> = vec![None; orders.len()];
    let mut built: Vec<Unit> = Vec::new();
    let mut disbanded: Vec<ProvinceId> = Vec::new();
    let mut civil_disorder = Vec::new();
    let not_executed = Verdict::Done {
        success: false,
        reason: Reason::NotExecuted,
    };
    let balances = balances(map, state);
    for power in map.power_ids() {
        let bal = balances.get(power.index()).copied().unwrap_or(0);
        let mine: Vec<usize> = (0..orders.len()).filter(|&k| orders[k].power == power).collect();
        // Legal orders in the order given.
        let mut legal: Vec<(usize, Option<Unit>, Option<ProvinceId>)> = Vec::with_capacity(mine.len());
        for &k in &mine {
            // A second build in one province, or a second disband of one
            // unit, is legal but not executed (4.D.5, DATC 6.I.7, 6.J.2).
            let again = match orders[k].kind {
                OrderKind::Build(u) | OrderKind::Disband(u) => legal.iter().any(|&(_, b, d)| {
                    d == Some(u.province) || b.is_some_and(|b| map.province_of(b.region) == u.province)
                }),
                _ => false,
            };
            let res = match orders[k].kind {
                _ if again => {
                    verdicts[k] = Some(not_executed);
                    continue;
                }
                OrderKind::Build(u) if bal > 0 => {
                    build_unit(map, state, rules, power, &u).map(|unit| (Some(unit), None))
                }
                OrderKind::Waive if bal > 0 => Ok((None, None)),
                OrderKind::Build(_) | OrderKind::Waive => Err(Illegal::TooMany),
                OrderKind::Disband(u) if bal < 0 => {
                    ordered_unit(map, state, rules, power, &u).map(|_| (None, Some(u.province)))
                }
                OrderKind::Disband(_) => Err(Illegal::TooMany),
                _ => Err(Illegal::WrongPhase),
            };
            match res {
                Ok((b, d)) => legal.push((k, b, d)),
                Err(e) => verdicts[k] = Some(Verdict::Illegal(e)),
            }
        }
        let allowed = bal.unsigned_abs() as usize;
        let keep: Vec<usize> = if legal.len() <= allowed {
            (0..legal.len()).collect()
        } else if bal > 0 {
            match rules.too_many_builds {
                Excess::First => (0..allowed).collect(),
                Excess::Last => (legal.len() - allowed..legal.len()).collect(),
                Excess::None => Vec::new(),
            }
        } else {
            match rules.too_many_disbands {
                ExcessDisbands::First => (0..allowed).collect(),
                ExcessDisbands::Last => (legal.len() - allowed..legal.len()).collect(),
                ExcessDisbands::CivilDisorder => Vec::new(),
            }
        };
        let mut disbands_done = 0;
        for (j, &(k, b, d)) in legal.iter().enumerate() {
            if !keep.contains(&j) {
                verdicts[k] = Some(not_executed);
                continue;
            }
            let reason = match (b, d) {
                (Some(unit), _) => {
                    built.push(unit);
                    Reason::Built
                }
                (None, Some(p)) => {
                    disbanded.push(p);
                    disbands_done += 1;
                    Reason::Disbanded
                }
                (None, None) => Reason::Waived,
            };
            verdicts[k] = Some(Verdict::Done { success: true, reason });
        }
        if bal < 0 && disbands_done < allowed {
            let gone: Vec<ProvinceId> = disbanded.clone();
            let removals = civil_disorder_removals(map, state, rules, power, allowed - disbands_done, &gone);
            civil_disorder.extend(removals);
        }
    }
    AdjustmentOutcome {
        orders: crate::outcome::reports(orders, verdicts),
        built,
        disbanded,
        civil_disorder,
    }
}

/// Which units civil disorder removes (4.D.8): the farthest first; at equal
/// distance fleets before armies, then by province name.
pub fn civil_disorder_removals(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    power: PowerId,
    count: usize,
    skip: &[ProvinceId],
) -> Vec<ProvinceId> {
    let targets: Vec<ProvinceId> = match rules.civil_disorder {
        CivilDisorder::Rule2023 => state.centers_of(map, power).collect(),
        CivilDisorder::Rule1971 => map
            .supply_centers()
            .iter()
            .copied()
            .filter(|&p| map.is_home(p, power))
            .collect(),
    };
    let mut units: Vec<(u32, bool, String, ProvinceId)> = state
        .units()
        .filter(|(p, u)| u.power == power && !skip.contains(p))
        .map(|(p, u)| {
            let fleet_moves = rules.civil_disorder == CivilDisorder::Rule1971 && map.unit_type(u.kind).uses_coasts;
            let d = distance(map, p, u.kind, fleet_moves, &targets);
            (
                d,
                map.unit_type(u.kind).uses_coasts,
                map.province(p).name.to_ascii_lowercase(),
                p,
            )
        })
        .collect();
    // Farthest first; fleets before armies; then alphabetically.
    units.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    units.into_iter().take(count).map(|u| u.3).collect()
}

/// Steps from `from` to the nearest of `targets`: over any border, or
/// (`own_moves`) only by the unit type's own borders.
fn distance(map: &Map, from: ProvinceId, kind: UnitTypeId, own_moves: bool, targets: &[ProvinceId]) -> u32 {
    let n = map.num_provinces();
    let mut dist = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    dist[from.index()] = 0;
    queue.push_back(from);
    while let Some(p) = queue.pop_front() {
        if targets.contains(&p) {
            return dist[p.index()];
        }
        for &r in &map.province(p).regions {
            let types: Vec<UnitTypeId> = if own_moves {
                vec![kind]
            } else {
                map.unit_type_ids().collect()
            };
            for ut in types {
                for e in map.edges(ut, r) {
                    let q = map.province_of(e.to);
                    if dist[q.index()] == u32::MAX {
                        dist[q.index()] = dist[p.index()] + 1;
                        queue.push_back(q);
                    }
                }
            }
        }
    }
    u32::MAX - 1
}

/// Centres change hands: each centre goes to the power with a unit in it.
pub fn update_ownership(map: &Map, state: &mut State) {
    for &sc in map.supply_centers() {
        if let Some(u) = state.unit(sc) {
            state.set_owner(sc, Some(u.power));
        }
    }
}

/// Is an adjustment phase needed (some power must or may adjust)?
pub fn needs_adjustment(map: &Map, state: &State) -> bool {
    let balances = balances(map, state);
    map.power_ids().any(|p| {
        let b = balances.get(p.index()).copied().unwrap_or(0);
        b < 0 || (b > 0 && map.supply_centers().iter().any(|&sc| can_build_in(map, state, p, sc)))
    })
}

/// The position after an adjustment phase.
pub fn apply(map: &Map, state: &State, outcome: &AdjustmentOutcome) -> State {
    let mut next = state.clone();
    for &p in outcome.disbanded.iter().chain(&outcome.civil_disorder) {
        next.remove(p);
    }
    for &u in &outcome.built {
        next.place(map, u);
    }
    next
}
