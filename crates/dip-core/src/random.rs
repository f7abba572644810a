//! Random but play-like orders, for benchmarks, property tests and random
//! bots: moves, supports that match other orders, convoys, holds.
//! Deterministic for a given seed.

use crate::adjustment::balance;
use crate::legal::adjustment_orders;
use crate::retreat::retreat_options;
use crate::{convoy, Dest, Map, Order, OrderKind, PhaseKind, ProvinceId, Ruleset, State, UnitRef};

/// A small, fast, seedable generator (SplitMix64): enough for play, not for
/// cryptography, and no dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn with_seed(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.u64() % n as u64) as usize
        }
    }
    /// A number in `0.0..1.0`.
    pub fn f32(&mut self) -> f32 {
        (self.u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

fn dest_of(map: &Map, r: crate::RegionId) -> Dest {
    let p = map.province_of(r);
    if map.region(r).coast.is_some() {
        Dest::coast(p, r)
    } else {
        Dest::new(p)
    }
}

/// Orders for every unit of the phase the state is in.
pub fn random_orders(map: &Map, state: &State, rules: &Ruleset, rng: &mut Rng) -> Vec<Order> {
    match state.phase.kind {
        PhaseKind::Movement => movement_orders(map, state, rng),
        PhaseKind::Retreat => {
            let mut out = Vec::new();
            for (p, d) in state.all_dislodged() {
                let me = UnitRef::new(Some(d.unit.kind), p);
                let opts = retreat_options(map, state, rules, &d);
                let kind = if opts.is_empty() || rng.f32() < 0.1 {
                    OrderKind::Disband(me)
                } else {
                    OrderKind::Retreat(me, dest_of(map, opts[rng.below(opts.len())]))
                };
                out.push(Order::new(d.unit.power, kind));
            }
            out
        }
        PhaseKind::Adjustment => {
            let mut out = Vec::new();
            for power in map.power_ids() {
                let need = balance(map, state, power).unsigned_abs() as usize;
                let mut opts = adjustment_orders(map, state, power);
                rng.shuffle(&mut opts);
                let mut used: Vec<ProvinceId> = Vec::new();
                for o in opts {
                    if out.iter().filter(|x: &&Order| x.power == power).count() >= need {
                        break;
                    }
                    let p = o.unit().map(|u| u.province);
                    if matches!(o.kind, OrderKind::Waive) || p.is_some_and(|p| used.contains(&p)) {
                        continue;
                    }
                    used.extend(p);
                    out.push(o);
                }
            }
            out
        }
    }
}

#[derive(Clone, Copy)]
enum Plan {
    Hold,
    Move(Dest, bool),
}

fn movement_orders(map: &Map, state: &State, rng: &mut Rng) -> Vec<Order> {
    let units: Vec<_> = state.units().collect();
    let mut plans: Vec<Plan> = Vec::with_capacity(units.len());
    for &(p, u) in &units {
        let ut = map.unit_type(u.kind);
        let edges = map.edges(u.kind, u.region);
        let r = rng.f32();
        let plan = if ut.convoyable && r < 0.04 {
            // A convoyed move to some coastal province reachable by sea.
            let targets: Vec<ProvinceId> = map
                .province_ids()
                .filter(|&q| {
                    q != p && map.allows(map.main_region(q), u.kind) && convoy::route_possible(map, state, p, q)
                })
                .collect();
            if targets.is_empty() {
                Plan::Hold
            } else {
                Plan::Move(Dest::new(targets[rng.below(targets.len())]), true)
            }
        } else if r < 0.6 && !edges.is_empty() {
            Plan::Move(dest_of(map, edges[rng.below(edges.len())].to), false)
        } else {
            Plan::Hold
        };
        plans.push(plan);
    }
    let mut orders = Vec::with_capacity(units.len());
    for (i, &(p, u)) in units.iter().enumerate() {
        let me = UnitRef::new(Some(u.kind), p);
        let mut kind = match plans[i] {
            Plan::Hold => OrderKind::Hold(me),
            Plan::Move(d, via) => OrderKind::Move(me, d, via),
        };
        // A third of the holding units support a neighbour instead.
        if matches!(plans[i], Plan::Hold) && rng.f32() < 0.65 {
            let start = rng.below(units.len().max(1));
            for k in 0..units.len() {
                let j = (start + k) % units.len();
                let (q, other) = units[j];
                if q == p {
                    continue;
                }
                let them = UnitRef::new(Some(other.kind), q);
                match plans[j] {
                    Plan::Move(d, _) if d.province != p && map.reaches(u.kind, u.region, d.province) => {
                        kind = OrderKind::SupportMove(me, them, Dest::new(d.province));
                        break;
                    }
                    Plan::Hold if map.reaches(u.kind, u.region, q) => {
                        kind = OrderKind::SupportHold(me, them);
                        break;
                    }
                    _ => {}
                }
            }
        }
        // Fleets at sea convoy a convoyed army whose route they are on.
        if map.unit_type(u.kind).can_convoy && map.is_convoy_space(p) {
            for (j, &(q, _)) in units.iter().enumerate() {
                if let Plan::Move(d, true) = plans[j] {
                    if convoy::on_route(map, state, q, d.province, p) {
                        kind = OrderKind::Convoy(me, UnitRef::new(Some(units[j].1.kind), q), d);
                        break;
                    }
                }
            }
        }
        orders.push(Order::new(u.power, kind));
    }
    orders
}
