//! Retreat phases (DATC 6.H): legal retreats, clashes, missing orders, and
//! DipWork's suggested retreat by the right-hand rule.

use crate::ids::{BitSet, ProvinceId, RegionId};
use crate::map::{EdgeFlags, Map, OrderClass};
use crate::movement::{check_unit_coast, check_unit_type, target_region};
use crate::order::{Dest, Order, OrderKind};
use crate::outcome::{Illegal, OrderReport, Reason, Verdict};
use crate::rules::{Duplicates, Ruleset};
use crate::state::{Dislodged, Phase, PhaseKind, State};

/// The result of a retreat phase.
#[derive(Clone, Debug)]
pub struct RetreatOutcome {
    pub orders: Vec<OrderReport>,
    /// Dislodged units without a valid order: disbanded.
    pub unordered: Vec<(ProvinceId, Verdict)>,
    /// Units that retreated: from, to.
    pub retreats: Vec<(ProvinceId, RegionId)>,
    /// Dislodged units removed.
    pub disbanded: Vec<ProvinceId>,
}

/// May the dislodged unit retreat to `dest`? Gives the region it ends in.
pub fn retreat_target(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    d: &Dislodged,
    dest: &Dest,
) -> Result<RegionId, Illegal> {
    let r = target_region(map, rules, d.unit, dest)?.ok_or(Illegal::RetreatNotPossible)?;
    let phase = retreat_phase(state.phase);
    if closed(map, d, r, phase) {
        return Err(Illegal::ClosedBorder);
    }
    if open_for(map, rules, d, r, |p| state.unit(p).is_some(), &state.standoffs, phase) {
        Ok(r)
    } else {
        Err(Illegal::RetreatNotPossible)
    }
}

/// The retreat phase of the season of `phase`.
pub(crate) fn retreat_phase(phase: Phase) -> Phase {
    Phase::new(phase.year, phase.season, PhaseKind::Retreat)
}

/// Does a border rule refuse the retreat to region `r` in `phase` (a rule
/// of the province left or of the one entered)?
fn closed(map: &Map, d: &Dislodged, r: RegionId, phase: Phase) -> bool {
    !map.border_rules().is_empty()
        && (map.closed(
            map.province_of(d.unit.region),
            None,
            d.unit.kind,
            OrderClass::Retreat,
            phase,
        ) || map.closed(map.province_of(r), None, d.unit.kind, OrderClass::Retreat, phase))
}

/// Is region `r`, next to the dislodged unit, open to it in `phase`?
fn open_for(
    map: &Map,
    rules: &Ruleset,
    d: &Dislodged,
    r: RegionId,
    occupied: impl Fn(ProvinceId) -> bool,
    standoffs: &BitSet,
    phase: Phase,
) -> bool {
    let flags = if map.has_edge_flags() {
        map.edge_flags(d.unit.kind, d.unit.region, r).unwrap_or_default()
    } else {
        EdgeFlags::default()
    };
    let p = map.province_of(r);
    !(closed(map, d, r, phase)
        || flags.has(EdgeFlags::NO_RETREAT)
        || occupied(p)
        || standoffs.contains(p.index())
        || (p == d.attacker_from && !(d.by_convoy && rules.retreat_to_convoy_origin)))
}

/// Has the dislodged unit anywhere to go in the retreat phase after
/// `movement`, with `occupied` provinces taken?
pub(crate) fn can_retreat(
    map: &Map,
    rules: &Ruleset,
    d: &Dislodged,
    occupied: &BitSet,
    standoffs: &BitSet,
    movement: Phase,
) -> bool {
    let phase = retreat_phase(movement);
    map.edges(d.unit.kind, d.unit.region)
        .iter()
        .any(|e| open_for(map, rules, d, e.to, |p| occupied.contains(p.index()), standoffs, phase))
}

/// Every region the dislodged unit may retreat to.
pub fn retreat_options(map: &Map, state: &State, rules: &Ruleset, d: &Dislodged) -> Vec<RegionId> {
    map.edges(d.unit.kind, d.unit.region)
        .iter()
        .filter(|e| {
            let dest = Dest {
                province: map.province_of(e.to),
                coast: crate::order::CoastSpec::Coast(e.to),
            };
            let dest = if map.region(e.to).coast.is_none() {
                Dest::new(dest.province)
            } else {
                dest
            };
            retreat_target(map, state, rules, d, &dest) == Ok(e.to)
        })
        .map(|e| e.to)
        .collect()
}

/// DipWork's suggestion: the first free neighbour clockwise from the
/// attacker's side. After a convoyed attack from afar, the side the attack
/// came from is taken by direction on the map (or the first neighbour).
pub fn suggested_retreat(map: &Map, state: &State, rules: &Ruleset, d: &Dislodged) -> Option<RegionId> {
    let options = retreat_options(map, state, rules, d);
    if options.is_empty() {
        return None;
    }
    let here = map.province_of(d.unit.region);
    let ring = map.clockwise(here);
    let start = match ring.iter().position(|&p| p == d.attacker_from) {
        Some(i) => i + 1,
        None => start_by_direction(map, here, d.attacker_from, ring),
    };
    (0..ring.len())
        .map(|k| ring[(start + k) % ring.len()])
        .find_map(|p| options.iter().copied().find(|&r| map.province_of(r) == p))
}

fn start_by_direction(map: &Map, here: ProvinceId, from: ProvinceId, ring: &[ProvinceId]) -> usize {
    let (Some((x, y)), Some((fx, fy))) = (map.province(here).pos, map.province(from).pos) else {
        return 0;
    };
    let angle = |(px, py): (f32, f32)| (py - y).atan2(px - x);
    let a = angle((fx, fy));
    ring.iter()
        .position(|&p| map.province(p).pos.is_some_and(|pos| angle(pos) > a))
        .unwrap_or(0)
}

/// Adjudicates a retreat phase.
pub fn adjudicate(map: &Map, state: &State, orders: &[Order], rules: &Ruleset) -> RetreatOutcome {
    let n = map.num_provinces();
    // Chosen order per dislodged unit: (order index, target or None = disband).
    let mut chosen: Vec<Option<(usize, Option<RegionId>)>> = vec![None; n];
    let mut conflicted = vec![false; n];
    let mut verdicts: Vec<Option<Verdict>> = vec![None; orders.len()];
    for (k, order) in orders.iter().enumerate() {
        let checked = check(map, state, rules, order);
        match checked {
            Err(e) => verdicts[k] = Some(Verdict::Illegal(e)),
            Ok((p, target)) => {
                let i = p.index();
                match chosen[i] {
                    None if !conflicted[i] => chosen[i] = Some((k, target)),
                    Some((prev, _)) if orders[prev] == *order => verdicts[k] = Some(Verdict::Duplicate),
                    Some((prev, _)) => match rules.duplicates {
                        Duplicates::First => verdicts[k] = Some(Verdict::Duplicate),
                        Duplicates::Last => {
                            verdicts[prev] = Some(Verdict::Duplicate);
                            chosen[i] = Some((k, target));
                        }
                        Duplicates::Hold => {
                            verdicts[prev] = Some(Verdict::Duplicate);
                            verdicts[k] = Some(Verdict::Duplicate);
                            chosen[i] = None;
                            conflicted[i] = true;
                        }
                    },
                    None => verdicts[k] = Some(Verdict::Duplicate),
                }
            }
        }
    }
    // Two retreats to one province: both disband.
    let mut count = vec![0u8; n];
    for c in chosen.iter().flatten() {
        if let (_, Some(r)) = c {
            let p = map.province_of(*r).index();
            count[p] = count[p].saturating_add(1);
        }
    }
    let mut out = RetreatOutcome {
        orders: Vec::new(),
        unordered: Vec::new(),
        retreats: Vec::new(),
        disbanded: Vec::new(),
    };
    for (p, _) in state.all_dislodged() {
        match chosen[p.index()] {
            Some((k, Some(r))) => {
                if count[map.province_of(r).index()] > 1 {
                    verdicts[k] = Some(Verdict::Done {
                        success: false,
                        reason: Reason::RetreatClash,
                    });
                    out.disbanded.push(p);
                } else {
                    verdicts[k] = Some(Verdict::Done {
                        success: true,
                        reason: Reason::Retreated,
                    });
                    out.retreats.push((p, r));
                }
            }
            Some((k, None)) => {
                verdicts[k] = Some(Verdict::Done {
                    success: true,
                    reason: Reason::Disbanded,
                });
                out.disbanded.push(p);
            }
            None => {
                out.unordered.push((
                    p,
                    Verdict::Done {
                        success: false,
                        reason: Reason::Disbanded,
                    },
                ));
                out.disbanded.push(p);
            }
        }
    }
    out.orders = crate::outcome::reports(orders, verdicts);
    out
}

fn check(map: &Map, state: &State, rules: &Ruleset, order: &Order) -> Result<(ProvinceId, Option<RegionId>), Illegal> {
    let (u, dest) = match order.kind {
        OrderKind::Retreat(u, d) | OrderKind::Move(u, d, false) => (u, Some(d)),
        OrderKind::Disband(u) => (u, None),
        _ => return Err(Illegal::WrongPhase),
    };
    let d = state.dislodged(u.province).ok_or(Illegal::NoSuchUnit)?;
    if d.unit.power != order.power && !rules.proxy_orders {
        return Err(Illegal::ForeignUnit);
    }
    check_unit_type(rules, d.unit, &u)?;
    check_unit_coast(map, rules, d.unit, &u)?;
    match dest {
        None => Ok((u.province, None)),
        Some(dest) => Ok((u.province, Some(retreat_target(map, state, rules, &d, &dest)?))),
    }
}

/// The position after a retreat phase.
pub fn apply(map: &Map, state: &State, outcome: &RetreatOutcome) -> State {
    let mut next = state.clone();
    for &(from, to) in &outcome.retreats {
        if let Some(d) = next.dislodged(from) {
            let mut u = d.unit;
            u.region = to;
            next.place(map, u);
        }
    }
    next.clear_dislodged();
    next
}
