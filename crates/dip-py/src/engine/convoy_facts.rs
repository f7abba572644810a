//! Convoy facts of an army (where it may be convoyed, which fleet may
//! convoy it where, where a route goes without each fleet), cached per
//! army and set of fleets in reach for the whole process.

use super::{code, codes_fit, FastMap, Game, OrderTable, VariantData};
use dip_core::{Dest, Map, Order, OrderKind, ProvinceId, RegionId, Unit, UnitRef, UnitTypeId};
use std::sync::{Arc, Mutex, OnceLock};

/// Convoy facts of one army, which depend only on the map, the army's
/// province, type and region, and the fleets it can reach: the provinces
/// it may be convoyed to, each (fleet, destination) convoy order that
/// dip's checks accept, and where a route goes without each fleet (the
/// fleet may support the army's move there), with the orders' numbers.
/// Searching routes is most of the cost of listing legal orders, and
/// fleets change less often than the rest.
#[derive(Debug, Default)]
pub(super) struct ConvoyFacts {
    pub(super) moves: Vec<ProvinceId>,
    /// The numbers of the moves by convoy to `moves` (`A LON - NWY VIA`).
    pub(super) move_ids: Vec<u32>,
    /// Per fleet: the destinations it may convoy the army to.
    pub(super) convoys: Vec<(ProvinceId, Vec<ProvinceId>)>,
    /// Per entry of `convoys`: the fleet's unit type and region when the
    /// facts were made, and the numbers of those convoy orders.
    pub(super) convoy_ids: Vec<(UnitTypeId, RegionId, Vec<u32>)>,
    /// Per fleet in reach: the places of `moves` that a route still
    /// reaches without it (DATC 6.D.31: a fleet cannot both convoy and
    /// support).
    pub(super) without: Vec<(ProvinceId, Vec<ProvinceId>)>,
    /// `moves` and each entry's places of `without` as sets of provinces,
    /// on maps of at most 256 (else empty): `supported_to` is asked for
    /// every unit next to each place, which scanning the lists made a
    /// part of listing supports.
    moves_set: Option<Provinces>,
    without_sets: Vec<Provinces>,
}

/// A set of provinces of a map of at most 256.
type Provinces = [u64; 4];

fn set_of(places: &[ProvinceId]) -> Option<Provinces> {
    let mut bits = [0u64; 4];
    for p in places {
        *bits.get_mut(p.index() / 64)? |= 1 << (p.index() % 64);
    }
    Some(bits)
}

fn has(bits: &Provinces, p: ProvinceId) -> bool {
    bits.get(p.index() / 64)
        .is_some_and(|w| w & (1 << (p.index() % 64)) != 0)
}

impl ConvoyFacts {
    /// May a unit in `supporter` support the army's move by convoy to `d`?
    /// (The route must not need the supporter.)
    #[inline]
    pub(super) fn supported_to(&self, supporter: ProvinceId, d: ProvinceId) -> bool {
        let Some(moves) = &self.moves_set else {
            return match self.without.iter().find(|(f, _)| *f == supporter) {
                Some((_, reached)) => reached.contains(&d),
                None => self.moves.contains(&d),
            };
        };
        match self.without.iter().position(|(f, _)| *f == supporter) {
            Some(k) => has(&self.without_sets[k], d),
            None => has(moves, d),
        }
    }

    /// Makes the sets of `moves` and `without` (when every place fits).
    fn make_sets(&mut self) {
        let sets: Option<Vec<Provinces>> = self.without.iter().map(|(_, r)| set_of(r)).collect();
        if let (Some(moves), Some(sets)) = (set_of(&self.moves), sets) {
            self.moves_set = Some(moves);
            self.without_sets = sets;
        }
    }
}

pub(super) type ConvoyMemo = (UnitTypeId, RegionId, [u64; 4], u64, Arc<ConvoyFacts>);

/// Map, rules, army province, army type and region, fleets in reach: as a
/// set of provinces when the map has at most 256 (no allocation), else listed.
pub(super) type ConvoyKey = (usize, u64, u16, u8, u16, [u64; 4], Vec<u16>);

pub(super) static CONVOYS: OnceLock<Mutex<FastMap<ConvoyKey, Arc<ConvoyFacts>>>> = OnceLock::new();

pub(super) const CONVOYS_MAX: usize = 1 << 16;

/// May a convoyed army land in `q`? Any land, a coast where fleets also
/// convoy (Baleares on ancmed) included.
pub(super) fn is_shore(map: &Map, q: ProvinceId) -> bool {
    matches!(
        map.province(q).terrain,
        dip_core::Terrain::Land | dip_core::Terrain::Coast
    )
}

/// The convoying provinces reachable from `from` through the given ones.
pub(super) fn reach(map: &Map, fleets: &[ProvinceId], from: ProvinceId) -> Vec<ProvinceId> {
    let mut seen = vec![false; fleets.len()];
    let mut stack: Vec<usize> = (0..fleets.len())
        .filter(|&k| map.convoy_adjacent(from, fleets[k]))
        .collect();
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        stack.extend((0..fleets.len()).filter(|&q| !seen[q] && map.convoy_adjacent(fleets[k], fleets[q])));
    }
    (0..fleets.len()).filter(|&k| seen[k]).map(|k| fleets[k]).collect()
}

/// A chain of the given convoying provinces from `from` to `to`.
pub(super) fn chain(map: &Map, fleets: &[ProvinceId], from: ProvinceId, to: ProvinceId) -> bool {
    let mut seen = vec![false; fleets.len()];
    let mut stack: Vec<usize> = (0..fleets.len())
        .filter(|&k| map.convoy_adjacent(from, fleets[k]))
        .collect();
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        if map.convoy_adjacent(fleets[k], to) {
            return true;
        }
        stack.extend((0..fleets.len()).filter(|&q| !seen[q] && map.convoy_adjacent(fleets[k], fleets[q])));
    }
    false
}

/// The convoy borders among the first 64 fleets of a list and from an
/// army's province, as bits, for `MinimalRoutes`.
struct ConvoyBorders<'a> {
    map: &'a Map,
    fleets: &'a [ProvinceId],
    from: ProvinceId,
    /// Per fleet `k`: bit `v` set when fleet `k` borders fleet `v`.
    next: Vec<u64>,
    /// Bit `v` set when the army's province borders fleet `v`.
    from_next: u64,
}

impl<'a> ConvoyBorders<'a> {
    fn new(map: &'a Map, fleets: &'a [ProvinceId], from: ProvinceId) -> Self {
        let fleets = &fleets[..fleets.len().min(64)];
        let bits = |a: ProvinceId| {
            (0..fleets.len())
                .filter(|&v| map.convoy_adjacent(a, fleets[v]))
                .fold(0u64, |b, v| b | 1 << v)
        };
        ConvoyBorders {
            map,
            fleets,
            from,
            next: fleets.iter().map(|&f| bits(f)).collect(),
            from_next: bits(from),
        }
    }

    /// The fleets (as bits) on some minimal convoy route to `to`:
    /// `convoy::on_minimal_route` for each at once. Its search is the same
    /// for every fleet but stops at the first route through the one asked
    /// about, so one full search within its step budget answers for all;
    /// past the budget, each is asked.
    fn on_route_to(&self, all: &[ProvinceId], to: ProvinceId) -> u64 {
        let n = self.fleets.len();
        let to_next = (0..n)
            .filter(|&k| self.map.convoy_adjacent(self.fleets[k], to))
            .fold(0u64, |b, k| b | 1 << k);
        let mut search = MinimalRoutes {
            borders: self,
            to_next,
            budget: 20_000,
            on_route: 0,
        };
        let mut firsts = self.from_next;
        let mut done = true;
        while firsts != 0 && done {
            let first = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            done = search.extend(first, 1 << first, 0);
        }
        let found = match done {
            true => search.on_route,
            false => (0..n)
                .filter(|&k| dip_core::convoy::on_minimal_route(self.map, all, self.from, to, k))
                .fold(0, |bits, k| bits | 1 << k),
        };
        debug_assert!((0..n)
            .all(|k| (found & 1 << k != 0) == dip_core::convoy::on_minimal_route(self.map, all, self.from, to, k)));
        found
    }
}

/// The chains of `ConvoyBorders::on_route_to`, searched in the order of
/// `on_minimal_route`.
struct MinimalRoutes<'a> {
    borders: &'a ConvoyBorders<'a>,
    /// Bit `k` set when fleet `k` borders the destination.
    to_next: u64,
    budget: u32,
    /// The fleets of the routes found, as bits.
    on_route: u64,
}

impl MinimalRoutes<'_> {
    /// Every chain without a shortcut extending the chain `path` (bits)
    /// that ends at fleet `last`, `before` the fleets bordering those of
    /// the chain before `last`; false when the budget ran out.
    fn extend(&mut self, last: usize, path: u64, before: u64) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        if self.to_next & 1 << last != 0 {
            // The chain ends here (no later fleet may touch `to`).
            self.on_route |= path;
            return true;
        }
        let b = self.borders;
        // No shortcut: the next fleet touches neither the army's province
        // nor any fleet of the chain before `last`.
        let mut next = b.next[last] & !path & !b.from_next & !before;
        while next != 0 {
            let v = next.trailing_zeros() as usize;
            next &= next - 1;
            if !self.extend(v, path | 1 << v, before | b.next[last]) {
                return false;
            }
        }
        true
    }
}

/// The number of an order in the table: by its code when the map's ids
/// fit one, else by its text.
#[inline]
fn order_number(table: &mut OrderTable, v: &VariantData, fit: bool, code: u64, text: &dyn Fn() -> String) -> u32 {
    if fit {
        table.coded(v, code, text)
    } else {
        table.id(v, &text())
    }
}

impl Game {
    /// The convoy facts of the army `u` in `q` with these fleets in reach.
    pub(super) fn convoy_facts(
        &self,
        table: &mut OrderTable,
        q: ProvinceId,
        u: Unit,
        fleets: &[ProvinceId],
        sea: &[ProvinceId],
    ) -> ConvoyFacts {
        let mut facts = ConvoyFacts::default();
        self.moves_by_convoy(table, &mut facts, q, u, sea);
        self.fleets_convoying(table, &mut facts, q, u, fleets, sea);
        self.routes_without(&mut facts, q, fleets);
        facts.make_sets();
        facts
    }

    /// The shores of `sea` the army may be convoyed to, with the numbers
    /// of those moves (`facts.moves`, `facts.move_ids`).
    fn moves_by_convoy(
        &self,
        table: &mut OrderTable,
        facts: &mut ConvoyFacts,
        q: ProvinceId,
        u: Unit,
        sea: &[ProvinceId],
    ) {
        use dip_core::movement::check_order;
        let map = self.map();
        let v = self.v;
        let fit = codes_fit(map);
        let army = &v.unit_names[u.kind.index()][u.region.index()];
        let st = &self.state;
        let them = UnitRef::new(Some(u.kind), q);
        for &d in sea {
            let by_convoy = |d: ProvinceId| {
                check_order(
                    map,
                    st,
                    &self.rules,
                    &Order::new(u.power, OrderKind::Move(them, Dest::new(d), true)),
                )
            };
            // A move to a province beyond the army's borders needs a route:
            // `sea` is every shore of the fleets the army reaches, so there
            // is one, and the check is whether the army may stand there.
            // (Searching routes per destination was most of the cost.)
            let ok = if map.reaches(u.kind, u.region, d) {
                by_convoy(d)
            } else {
                let ok = map.allows(map.main_region(d), u.kind);
                debug_assert_eq!(ok, by_convoy(d));
                ok
            };
            if ok {
                facts.moves.push(d);
                let dn = &v.prov_names[d.index()];
                facts.move_ids.push(order_number(
                    table,
                    v,
                    fit,
                    code(3, u.kind, u.region, None, d.0),
                    &|| format!("{army} - {dn} VIA"),
                ));
            }
        }
    }

    /// Per fleet in reach: where it may convoy the army, with the numbers
    /// of those convoy orders (`facts.convoys`, `facts.convoy_ids`).
    fn fleets_convoying(
        &self,
        table: &mut OrderTable,
        facts: &mut ConvoyFacts,
        q: ProvinceId,
        u: Unit,
        fleets: &[ProvinceId],
        sea: &[ProvinceId],
    ) {
        use dip_core::movement::check_order;
        let map = self.map();
        let v = self.v;
        let fit = codes_fit(map);
        let army = &v.unit_names[u.kind.index()][u.region.index()];
        let st = &self.state;
        let them = UnitRef::new(Some(u.kind), q);
        // What `convoy::on_route` lists on every call: the units able to convoy.
        let able: Vec<ProvinceId> = map
            .province_ids()
            .filter(|&p| dip_core::convoy::can_convoy_in(map, st, p))
            .collect();
        // Per shore of `sea`: the fleets of `able` on a minimal route there
        // (none where the army may not stand), found once for all fleets.
        let borders = ConvoyBorders::new(map, &able, q);
        let on_route: Vec<u64> = sea
            .iter()
            .map(|&d| match map.allows(map.main_region(d), u.kind) {
                true => borders.on_route_to(&able, d),
                false => 0,
            })
            .collect();
        for &f in fleets {
            let Some(fleet) = st.unit(f) else { continue };
            let Some(k) = able.iter().position(|&x| x == f) else {
                continue;
            };
            // `check_order` of the convoy is: a unit able to convoy in a
            // convoy space (`able`), a convoyable army (`u`), a destination
            // other than the army's province (`sea`) where it may stand, and
            // the fleet on a route (`on_route`, as here).
            let dests: Vec<ProvinceId> = sea
                .iter()
                .zip(&on_route)
                .filter(|&(_, &fleets_on)| k < 64 && fleets_on & 1 << k != 0)
                .map(|(&d, _)| d)
                .collect();
            debug_assert!(sea.iter().all(|&d| dests.contains(&d)
                == check_order(
                    map,
                    st,
                    &self.rules,
                    &Order::new(
                        fleet.power,
                        OrderKind::Convoy(UnitRef::new(Some(fleet.kind), f), them, Dest::new(d))
                    )
                )));
            if !dests.is_empty() {
                let mine = &v.unit_names[fleet.kind.index()][fleet.region.index()];
                let numbers = dests
                    .iter()
                    .map(|d| {
                        let dn = &v.prov_names[d.index()];
                        order_number(
                            table,
                            v,
                            fit,
                            code(7, fleet.kind, fleet.region, Some((u.kind, u.region)), d.0),
                            &|| format!("{mine} C {army} - {dn}"),
                        )
                    })
                    .collect();
                facts.convoy_ids.push((fleet.kind, fleet.region, numbers));
                facts.convoys.push((f, dests));
            }
        }
    }

    /// Per fleet in reach: the moves a route still reaches without it
    /// (`facts.without`): the shores of the fleets still reached from the
    /// army (`convoy::route_possible_without`).
    fn routes_without(&self, facts: &mut ConvoyFacts, q: ProvinceId, fleets: &[ProvinceId]) {
        let map = self.map();
        let st = &self.state;
        let mut seen = vec![false; map.num_provinces()];
        let mut stack: Vec<ProvinceId> = Vec::new();
        for &skip in fleets {
            seen.iter_mut().for_each(|x| *x = false);
            let mut shores: Vec<ProvinceId> = Vec::new();
            stack.clear();
            stack.push(q);
            while let Some(p) = stack.pop() {
                for x in map.convoy_neighbours(p).iter() {
                    let x = ProvinceId(x as u16);
                    if p != q && facts.moves.contains(&x) && !shores.contains(&x) {
                        shores.push(x);
                    }
                    if seen[x.index()] || x == skip || !dip_core::convoy::can_convoy_in(map, st, x) {
                        continue;
                    }
                    seen[x.index()] = true;
                    stack.push(x);
                }
            }
            let reached = facts.moves.iter().copied().filter(|d| shores.contains(d)).collect();
            facts.without.push((skip, reached));
        }
    }
}
