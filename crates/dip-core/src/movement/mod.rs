//! Movement phases: check the orders, resolve them, report, and apply.

mod board;
mod resolve;
mod validate;

pub(crate) use validate::{check_unit_coast, check_unit_type, ordered_unit, target_region};

/// Is this order legal in this movement phase (before adjudication)?
pub fn check_order(map: &Map, state: &State, rules: &Ruleset, order: &Order) -> bool {
    validate::check(map, state, rules, &BitSet::default(), order).is_ok()
}

/// Why this order would be refused in this movement phase, if it would
/// (the same checks as [`check_order`], with the reason).
pub fn order_problem(map: &Map, state: &State, rules: &Ruleset, order: &Order) -> Result<(), crate::outcome::Illegal> {
    validate::check(map, state, rules, &BitSet::default(), order).map(|_| ())
}

use crate::ids::{BitSet, ProvinceId};
use crate::map::Map;
use crate::order::{Dest, Order, OrderKind, UnitRef};
use crate::outcome::{OrderReport, Reason, Verdict};
use crate::rules::Ruleset;
use crate::state::{Dislodged, State};
use board::{Act, Slot, NONE};
use resolve::{Lists, Resolver};

/// The result of one movement phase.
#[derive(Clone, Debug)]
pub struct MovementOutcome {
    /// One report per order given, in the order given.
    pub orders: Vec<OrderReport>,
    /// Units without a (valid) order: they held. With their fate.
    pub unordered: Vec<(ProvinceId, Verdict)>,
    /// Moves that succeeded: from, to.
    pub moves: Vec<(ProvinceId, crate::ids::RegionId)>,
    pub dislodged: Vec<Dislodged>,
    /// Dislodged units with nowhere to retreat: disbanded at once (no
    /// retreat phase is held for them).
    pub disbanded: Vec<ProvinceId>,
    /// Provinces left empty by a standoff.
    pub standoffs: BitSet,
}

/// Adjudicates a movement phase. Never panics: illegal orders are reported.
pub fn adjudicate(map: &Map, state: &State, orders: &[Order], rules: &Ruleset) -> MovementOutcome {
    adjudicate_with_paths(map, state, orders, &[], rules)
}

/// Adjudicates a movement phase with the convoy paths written in the
/// orders: `paths[k]` the provinces between a move's origin and its
/// destination as order `k` wrote them (empty or missing: no path). The
/// paths count only under `convoy-path=binding` (DATC 4.A.6): a convoy by
/// a unit off the army's path does not match its move.
pub fn adjudicate_with_paths(
    map: &Map,
    state: &State,
    orders: &[Order],
    paths: &[Vec<ProvinceId>],
    rules: &Ruleset,
) -> MovementOutcome {
    let (mut slots, slot_of) = board_slots(map, state);
    let offered_convoy = offered_convoys(orders);
    let (mut verdicts, conflicted) = claim_units(map, state, rules, &offered_convoy, orders, &mut slots, &slot_of);
    if rules.implicit_orders {
        implicit_moves(map, state, rules, &offered_convoy, &mut slots, &conflicted);
    }
    validate::settle_routes(rules, &mut slots, &slot_of);
    match_supports_and_convoys(map, rules, paths, &mut slots, &slot_of);

    let lists = Lists::new(map.num_provinces(), &slots, &slot_of);
    let mut r = Resolver::new(map, rules, &slots, &slot_of, &lists);
    r.run();

    let (moves, dislodged_by) = moves_and_dislodged(&r, &slots, &slot_of);
    let dislodged = dislodged_units(&mut r, state, &slots, &dislodged_by);
    let occupied = occupied_after(map, &r, &slots, &dislodged_by, &moves);
    let standoffs = standoffs(map, &mut r, &slots, &occupied);
    let unordered = settle_verdicts(&mut r, &slots, &dislodged_by, &mut verdicts);
    let reports = order_reports(state, orders, verdicts, &slots, &slot_of, &dislodged_by);
    let mut outcome = MovementOutcome {
        orders: reports,
        unordered,
        moves,
        dislodged,
        disbanded: Vec::new(),
        standoffs,
    };
    if !outcome.dislodged.is_empty() {
        outcome.disbanded = outcome
            .dislodged
            .iter()
            .filter(|d| !crate::retreat::can_retreat(map, rules, d, &occupied, &outcome.standoffs, state.phase))
            .map(|d| map.province_of(d.unit.region))
            .collect();
    }
    outcome
}

/// A slot for each unit on the board, holding until an order claims it,
/// and each province's slot (`NONE`: empty).
fn board_slots(map: &Map, state: &State) -> (Vec<Slot>, Vec<u16>) {
    // Room for a unit in every province: the slots never grow one by one.
    let mut slots: Vec<Slot> = Vec::with_capacity(map.num_provinces());
    let mut slot_of = vec![NONE; map.num_provinces()];
    for (p, u) in state.units() {
        slot_of[p.index()] = slots.len() as u16;
        slots.push(Slot {
            province: p,
            power: u.power,
            kind: u.kind,
            strength: map.unit_type(u.kind).strength,
            act: Act::Hold,
            given: None,
            matches: true,
        });
    }
    (slots, slot_of)
}

/// The provinces of the armies some fleet offers to convoy: a move there
/// may go by sea even when it could walk.
fn offered_convoys(orders: &[Order]) -> BitSet {
    let mut offered = BitSet::default();
    for order in orders {
        if let OrderKind::Convoy(_, army, _) = order.kind {
            offered.insert(army.province.index());
        }
    }
    offered
}

/// Checks each order; a legal one claims its unit (4.D.3 for several
/// orders to one unit). The verdicts known already (illegal, duplicate),
/// and the slots whose orders conflict, so that the unit holds.
fn claim_units(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    offered_convoy: &BitSet,
    orders: &[Order],
    slots: &mut [Slot],
    slot_of: &[u16],
) -> (Vec<Option<Verdict>>, Vec<bool>) {
    let mut verdicts: Vec<Option<Verdict>> = vec![None; orders.len()];
    let mut conflicted = vec![false; slots.len()];
    for (k, order) in orders.iter().enumerate() {
        match validate::check(map, state, rules, offered_convoy, order) {
            Err(e) => verdicts[k] = Some(Verdict::Illegal(e)),
            Ok((p, act)) => {
                let i = slot_of[p.index()] as usize;
                let slot = &mut slots[i];
                match slot.given {
                    None if !conflicted[i] => {
                        slot.given = Some(k as u32);
                        slot.act = act;
                    }
                    Some(prev) if orders[prev as usize] == *order => verdicts[k] = Some(Verdict::Duplicate),
                    Some(prev) => match validate::pick_duplicate(rules, prev as usize, k) {
                        Some(keep) if keep == prev as usize => verdicts[k] = Some(Verdict::Duplicate),
                        Some(_) => {
                            verdicts[prev as usize] = Some(Verdict::Duplicate);
                            slot.given = Some(k as u32);
                            slot.act = act;
                        }
                        None => {
                            verdicts[prev as usize] = Some(Verdict::Duplicate);
                            verdicts[k] = Some(Verdict::Duplicate);
                            slot.given = None;
                            slot.act = Act::Hold;
                            conflicted[i] = true;
                        }
                    },
                    None => verdicts[k] = Some(Verdict::Duplicate),
                }
            }
        }
    }
    (verdicts, conflicted)
}

/// Whether each support and convoy matches an order. Convoys first: a
/// support of a convoyed move is void unless a chain of matching convoys
/// is ordered (DATC 4.E.1: such a move is not valid).
fn match_supports_and_convoys(
    map: &Map,
    rules: &Ruleset,
    paths: &[Vec<ProvinceId>],
    slots: &mut [Slot],
    slot_of: &[u16],
) {
    for convoys_first in [true, false] {
        for i in 0..slots.len() {
            if matches!(slots[i].act, Act::Convoy { .. }) != convoys_first {
                continue;
            }
            let mut m = validate::matches(map, rules, slots, slot_of, &slots[i]);
            if let Act::SupportMove { target, .. } = slots[i].act {
                m &= convoy_ordered(map, slots, slot_of, target);
            }
            if let (Act::Convoy { army, .. }, true) = (slots[i].act, rules.convoy_path_binding) {
                let path = slot_of
                    .get(army.index())
                    .filter(|&&j| j != NONE)
                    .and_then(|&j| slots.get(j as usize))
                    .and_then(|s| s.given)
                    .and_then(|k| paths.get(k as usize))
                    .filter(|p| !p.is_empty());
                if let Some(path) = path {
                    m &= path.contains(&slots[i].province);
                }
            }
            slots[i].matches = m;
        }
    }
}

/// The moves that succeeded (from, to) and, for each slot, the slot of
/// the move that dislodged it.
fn moves_and_dislodged(
    r: &Resolver,
    slots: &[Slot],
    slot_of: &[u16],
) -> (Vec<(ProvinceId, crate::ids::RegionId)>, Vec<Option<usize>>) {
    let mut moves = Vec::with_capacity(slots.len());
    let mut dislodged_by: Vec<Option<usize>> = vec![None; slots.len()];
    for (i, s) in slots.iter().enumerate() {
        if let Act::Move { to, to_p, .. } = s.act {
            if r.result(i) {
                moves.push((s.province, to));
                let o = slot_of[to_p.index()];
                if o != NONE {
                    let o = o as usize;
                    let left = matches!(slots[o].act, Act::Move { .. }) && r.result(o);
                    if !left {
                        dislodged_by[o] = Some(i);
                    }
                }
            }
        }
    }
    (moves, dislodged_by)
}

/// The dislodged units, each with where its attacker came from.
fn dislodged_units(r: &mut Resolver, state: &State, slots: &[Slot], dislodged_by: &[Option<usize>]) -> Vec<Dislodged> {
    let mut dislodged = Vec::new();
    for (o, by) in dislodged_by.iter().enumerate() {
        if let Some(m) = *by {
            let unit = state.unit(slots[o].province).expect("slot has a unit");
            dislodged.push(Dislodged {
                unit,
                attacker_from: slots[m].province,
                by_convoy: r.is_convoyed(m),
            });
        }
    }
    dislodged
}

/// The provinces with a unit after the phase: those that stayed and were
/// not dislodged, and the moves' destinations.
fn occupied_after(
    map: &Map,
    r: &Resolver,
    slots: &[Slot],
    dislodged_by: &[Option<usize>],
    moves: &[(ProvinceId, crate::ids::RegionId)],
) -> BitSet {
    let mut occupied = BitSet::with_capacity(map.num_provinces());
    for (i, s) in slots.iter().enumerate() {
        let moved = matches!(s.act, Act::Move { .. }) && r.result(i);
        if !moved && dislodged_by[i].is_none() {
            occupied.insert(s.province.index());
        }
    }
    for &(_, to) in moves {
        occupied.insert(map.province_of(to).index());
    }
    occupied
}

/// Standoffs: empty after the phase, and a failed move into it that still
/// kept others out (a unit beaten head-to-head does not, DATC 6.H.9).
fn standoffs(map: &Map, r: &mut Resolver, slots: &[Slot], occupied: &BitSet) -> BitSet {
    let mut standoffs = BitSet::with_capacity(map.num_provinces());
    for (i, s) in slots.iter().enumerate() {
        if let Act::Move { to_p, .. } = s.act {
            if !r.result(i) && !occupied.contains(to_p.index()) && r.prevents(i) {
                standoffs.insert(to_p.index());
            }
        }
    }
    standoffs
}

/// The verdict of each order that was adjudicated, filed under its order;
/// the units without a valid order, with theirs.
fn settle_verdicts(
    r: &mut Resolver,
    slots: &[Slot],
    dislodged_by: &[Option<usize>],
    verdicts: &mut [Option<Verdict>],
) -> Vec<(ProvinceId, Verdict)> {
    let mut unordered = Vec::new();
    for i in 0..slots.len() {
        let verdict = slot_verdict(r, slots, i, dislodged_by[i].map(|m| slots[m].province));
        match slots[i].given {
            Some(k) => verdicts[k as usize] = Some(verdict),
            None => unordered.push((slots[i].province, verdict)),
        }
    }
    unordered
}

/// One report per order given, in the order given: its verdict and
/// whether its unit was dislodged.
fn order_reports(
    state: &State,
    orders: &[Order],
    verdicts: Vec<Option<Verdict>>,
    slots: &[Slot],
    slot_of: &[u16],
    dislodged_by: &[Option<usize>],
) -> Vec<OrderReport> {
    orders
        .iter()
        .zip(verdicts)
        .map(|(order, v)| {
            let dislodged = order
                .unit()
                .map(|u| slot_of[u.province.index()])
                .filter(|&j| j != NONE)
                .is_some_and(|j| {
                    dislodged_by[j as usize].is_some()
                        && state
                            .unit(slots[j as usize].province)
                            .is_some_and(|u| u.power == order.power)
                });
            OrderReport {
                order: *order,
                verdict: v.unwrap_or(Verdict::Duplicate),
                dislodged,
            }
        })
        .collect()
}

/// Does the move of the unit in `army` have its route: over a border, or a
/// chain of matching convoy orders (disrupted or not)?
fn convoy_ordered(map: &Map, slots: &[Slot], slot_of: &[u16], army: ProvinceId) -> bool {
    let Some(&j) = slot_of.get(army.index()) else {
        return true;
    };
    let Some(Act::Move { route, to_p, .. }) = slots.get(j as usize).map(|s| s.act) else {
        return true;
    };
    if route != board::Route::Convoy {
        return true;
    }
    let fleets: Vec<ProvinceId> = slots
        .iter()
        .filter(|s| s.matches && matches!(s.act, Act::Convoy { army: a, to } if a == army && to == to_p))
        .map(|s| s.province)
        .collect();
    let mut reached = vec![false; fleets.len()];
    let mut stack: Vec<usize> = (0..fleets.len())
        .filter(|&k| map.convoy_adjacent(army, fleets[k]))
        .collect();
    while let Some(k) = stack.pop() {
        if reached[k] {
            continue;
        }
        reached[k] = true;
        if map.convoy_adjacent(fleets[k], to_p) {
            return true;
        }
        stack.extend((0..fleets.len()).filter(|&q| !reached[q] && map.convoy_adjacent(fleets[k], fleets[q])));
    }
    false
}

/// 4.E.3: a unit without an order moves where an own support says it moves.
fn implicit_moves(
    map: &Map,
    state: &State,
    rules: &Ruleset,
    offered: &BitSet,
    slots: &mut [Slot],
    conflicted: &[bool],
) {
    for i in 0..slots.len() {
        if slots[i].given.is_some() || conflicted[i] {
            continue;
        }
        let (me, power) = (slots[i].province, slots[i].power);
        let dest = slots.iter().find_map(|s| match s.act {
            Act::SupportMove { target, to, coast } if target == me && s.power == power => Some((to, coast)),
            _ => None,
        });
        let Some((to, coast)) = dest else {
            continue;
        };
        let unit = UnitRef::new(None, me);
        let d = match coast {
            Some(r) => Dest::coast(to, r),
            None => Dest::new(to),
        };
        let order = Order::new(power, OrderKind::Move(unit, d, false));
        if let Ok((_, act)) = validate::check(map, state, rules, offered, &order) {
            slots[i].act = act;
        }
    }
}

fn slot_verdict(r: &mut Resolver, slots: &[Slot], i: usize, dislodged_from: Option<ProvinceId>) -> Verdict {
    let s = &slots[i];
    let (success, reason) = match s.act {
        Act::Hold => match dislodged_from {
            Some(p) => (false, Reason::Dislodged(p)),
            None => (true, Reason::Held),
        },
        Act::Move { .. } => {
            if r.result(i) {
                (true, Reason::Moved)
            } else if !r.has_path(i) {
                (false, Reason::NoConvoy)
            } else if r.head_to_head(i).is_some() {
                (false, Reason::BeatenHeadToHead)
            } else if r.attack_of(i) == 0 && r.meets_own_unit(i) {
                (false, Reason::OwnUnit)
            } else {
                (false, Reason::Bounced)
            }
        }
        Act::SupportHold { .. } | Act::SupportMove { .. } => {
            if !s.matches {
                (false, Reason::SupportVoid)
            } else if r.result(i) {
                (true, Reason::SupportGiven)
            } else {
                match r.cutter(i) {
                    Some(p) => (false, Reason::SupportCut(p)),
                    None => (false, Reason::SupportVoid),
                }
            }
        }
        Act::Convoy { .. } => {
            if !s.matches {
                (false, Reason::ConvoyVoid)
            } else if r.paradox[i] {
                (false, Reason::ConvoyParadox)
            } else if r.result(i) {
                (true, Reason::ConvoyGiven)
            } else {
                (false, Reason::ConvoyDisrupted)
            }
        }
    };
    Verdict::Done { success, reason }
}

/// The position after a movement phase (still in the same season; the
/// caller advances the phase).
pub fn apply(map: &Map, state: &State, outcome: &MovementOutcome) -> State {
    let mut next = state.clone();
    next.clear_dislodged();
    let mut moving = Vec::with_capacity(outcome.moves.len());
    for &(from, to) in &outcome.moves {
        if let Some(u) = next.remove(from) {
            moving.push((u, to));
        }
    }
    for d in &outcome.dislodged {
        let p = map.province_of(d.unit.region);
        if next.unit(p) == Some(d.unit) {
            next.remove(p);
        }
        if !outcome.disbanded.contains(&p) {
            next.set_dislodged(map, *d);
        }
    }
    for (mut u, to) in moving {
        u.region = to;
        next.place(map, u);
    }
    next.standoffs = outcome.standoffs.clone();
    next
}
