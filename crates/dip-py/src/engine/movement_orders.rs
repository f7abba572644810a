//! Every legal order of every unit in a movement phase: candidates from
//! the map (neighbours, convoy reach, units that could be helped), kept
//! only where dip's checks accept them.

use super::{
    code, codes_fit, is_shore, ConvoyFacts, ConvoyKey, ConvoyMemo, FastMap, Game, OrderTable, CONVOYS, CONVOYS_MAX,
};
use dip_core::{Dest, Map, Order, OrderKind, ProvinceId, Unit, UnitRef};
use std::sync::{Arc, Mutex};

/// Buffers `movement_orders` fills anew for each position, kept between
/// calls so that listing legal orders allocates nothing once warm.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) units: Vec<(ProvinceId, Unit)>,
    /// Per unit, the provinces beyond the fleets it reaches (a span of `sea`)
    /// and those fleets (a span of `fleets`), and its convoy facts.
    pub(super) sea: Vec<ProvinceId>,
    pub(super) sea_span: Vec<(u32, u32)>,
    /// Per unit, the provinces of its `sea` beyond its own borders.
    pub(super) beyond: Vec<ProvinceId>,
    pub(super) beyond_span: Vec<(u32, u32)>,
    pub(super) fleets: Vec<ProvinceId>,
    pub(super) fleet_span: Vec<(u32, u32)>,
    pub(super) facts: Vec<Option<Arc<ConvoyFacts>>>,
    pub(super) seen: dip_core::ids::BitSet,
    pub(super) shores: dip_core::ids::BitSet,
    pub(super) stack: Vec<ProvinceId>,
    /// Who can move into each province (see `movement_orders`).
    pub(super) start: Vec<u32>,
    pub(super) fill: Vec<u32>,
    pub(super) reach: Vec<(u32, u16)>,
    pub(super) unit_at: Vec<u32>,
    /// The armies each fleet could convoy, by the fleet's province (see
    /// `movement_orders`).
    pub(super) convoyed: Vec<u32>,
    pub(super) conv_start: Vec<u32>,
    /// By province: its group of touching convoy spaces with a unit able to
    /// convoy (`u32::MAX`: none); each group's provinces, a span of `members`.
    pub(super) group: Vec<u32>,
    pub(super) members: Vec<ProvinceId>,
    pub(super) member_span: Vec<(u32, u32)>,
    /// By group: its shores (a span of `group_shores`).
    pub(super) group_shores: Vec<ProvinceId>,
    pub(super) shore_span: Vec<(u32, u32)>,
    /// By province: the convoy facts of the army found there last, with
    /// its type, region, fleets in reach and the rules' hash.
    pub(super) memo: Vec<Option<ConvoyMemo>>,
    /// Per unit: its province, the unit, its span of the orders listed.
    pub(super) out: Vec<(ProvinceId, Unit, (u32, u32))>,
}

/// A copy of a game starts with empty buffers.
impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl Game {
    /// Every legal order of every unit in a movement phase, appended to
    /// `ids` as numbers of the variant's `OrderTable`; `s.out` gets each
    /// unit's province and span in `ids`. Candidates come from the map
    /// (neighbours, convoy reach, units that could be helped) and are kept
    /// only if dip's checks accept them, so the list and the adjudicator
    /// never disagree.
    pub(super) fn movement_orders(&self, table: &mut OrderTable, s: &mut Scratch, ids: &mut Vec<u32>) {
        use dip_core::movement::check_order;
        let map = self.map();
        let v = self.v;
        let st = &self.state;
        let n = map.num_provinces();
        s.units.clear();
        s.units.extend(st.units());
        let units = &s.units;
        // Where each unit can go: by its own borders, and (armies) by convoy.
        if s.seen.is_empty() || s.shores.is_empty() {
            s.seen = dip_core::ids::BitSet::with_capacity(n);
            s.shores = dip_core::ids::BitSet::with_capacity(n);
        }
        s.sea.clear();
        s.sea_span.clear();
        s.fleets.clear();
        s.fleet_span.clear();
        s.facts.clear();
        let rules_hash = {
            use std::hash::BuildHasher;
            foldhash::fast::FixedState::default().hash_one(self.rules)
        };
        // The process-wide cache, locked only when this game's memo misses.
        let mut cache = None;
        if s.memo.len() != n {
            s.memo = vec![None; n];
        }
        // The groups of convoy spaces holding a unit able to convoy that
        // touch one another: an army reaches every fleet of each group next
        // to it (`convoy::fleets_reachable`, found once for all armies).
        s.group.clear();
        s.group.resize(n, u32::MAX);
        s.members.clear();
        s.member_span.clear();
        for q in 0..n {
            let q = ProvinceId(q as u16);
            if s.group[q.index()] != u32::MAX || !dip_core::convoy::can_convoy_in(map, st, q) {
                continue;
            }
            let g = s.member_span.len() as u32;
            let start = s.members.len();
            s.group[q.index()] = g;
            s.members.push(q);
            let mut k = start;
            while k < s.members.len() {
                let f = s.members[k];
                k += 1;
                for x in map.convoy_neighbours(f).iter() {
                    let x = ProvinceId(x as u16);
                    if s.group[x.index()] == u32::MAX && dip_core::convoy::can_convoy_in(map, st, x) {
                        s.group[x.index()] = g;
                        s.members.push(x);
                    }
                }
            }
            s.member_span.push((start as u32, s.members.len() as u32));
        }
        // Each group's shores (the land its units touch), in the order the
        // loop over an army's fleets below finds them: most armies reach
        // one group, and their shores are then the group's.
        s.group_shores.clear();
        s.shore_span.clear();
        for g in 0..s.member_span.len() {
            let (a, b) = s.member_span[g];
            s.members[a as usize..b as usize].sort_unstable();
            s.shores.clear();
            let from = s.group_shores.len() as u32;
            for &f in &s.members[a as usize..b as usize] {
                for q in map.convoy_neighbours(f).iter() {
                    if is_shore(map, ProvinceId(q as u16)) && !s.shores.contains(q) {
                        s.shores.insert(q);
                        s.group_shores.push(ProvinceId(q as u16));
                    }
                }
            }
            s.shore_span.push((from, s.group_shores.len() as u32));
        }
        for &(p, u) in units {
            let (sea0, fleet0) = (s.sea.len(), s.fleets.len());
            if map.unit_type(u.kind).convoyable && !s.member_span.is_empty() {
                let mut near: [u32; 8] = [u32::MAX; 8];
                let mut count = 0;
                let mut many = false;
                for x in map.convoy_neighbours(p).iter() {
                    let g = s.group[x];
                    if g != u32::MAX && !near[..count].contains(&g) {
                        if count == near.len() {
                            many = true;
                            break;
                        }
                        near[count] = g;
                        count += 1;
                    }
                }
                if many {
                    dip_core::convoy::fleets_reachable(map, st, p, &mut s.seen, &mut s.stack);
                    s.fleets.extend(s.seen.iter().map(|f| ProvinceId(f as u16)));
                } else {
                    for &g in &near[..count] {
                        let (a, b) = s.member_span[g as usize];
                        s.fleets.extend_from_slice(&s.members[a as usize..b as usize]);
                    }
                    s.fleets[fleet0..].sort_unstable();
                }
                debug_assert_eq!(&s.fleets[fleet0..], {
                    dip_core::convoy::fleets_reachable(map, st, p, &mut s.seen, &mut s.stack);
                    s.seen.iter().map(|f| ProvinceId(f as u16)).collect::<Vec<_>>()
                });
                if count == 1 && !many {
                    let (a, b) = s.shore_span[near[0] as usize];
                    s.sea
                        .extend(s.group_shores[a as usize..b as usize].iter().filter(|&&q| q != p));
                } else {
                    s.shores.clear();
                    for &f in &s.fleets[fleet0..] {
                        for q in map.convoy_neighbours(f).iter() {
                            let q = ProvinceId(q as u16);
                            if q != p && is_shore(map, q) && !s.shores.contains(q.index()) {
                                s.shores.insert(q.index());
                                s.sea.push(q);
                            }
                        }
                    }
                }
            }
            let fleets = &s.fleets[fleet0..];
            let facts = if fleets.is_empty() {
                None
            } else {
                let mut bits = [0u64; 4];
                let small = n <= 256;
                if small {
                    for f in fleets {
                        bits[f.index() / 64] |= 1 << (f.index() % 64);
                    }
                }
                let listed = if small {
                    Vec::new()
                } else {
                    fleets.iter().map(|f| f.0).collect()
                };
                // The facts this game's army had there last time, if its
                // fleets are the same: most fleets stay a phase or more.
                let memo = &mut s.memo[p.index()];
                match memo {
                    Some((k, r, b, h, f)) if small && (*k, *r, *b, *h) == (u.kind, u.region, bits, rules_hash) => {
                        Some(f.clone())
                    }
                    _ => {
                        let key: ConvoyKey = (
                            map as *const Map as usize,
                            rules_hash,
                            p.0,
                            u.kind.0,
                            u.region.0,
                            bits,
                            listed,
                        );
                        let cache = cache.get_or_insert_with(|| {
                            CONVOYS
                                .get_or_init(|| {
                                    Mutex::new(FastMap::with_capacity_and_hasher(1 << 12, Default::default()))
                                })
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                        });
                        let found = cache.get(&key).cloned();
                        let f = found.unwrap_or_else(|| {
                            let f = Arc::new(self.convoy_facts(table, p, u, fleets, &s.sea[sea0..]));
                            if cache.len() >= CONVOYS_MAX {
                                cache.clear();
                            }
                            cache.insert(key, f.clone());
                            f
                        });
                        if small {
                            *memo = Some((u.kind, u.region, bits, rules_hash, f.clone()));
                        }
                        Some(f)
                    }
                }
            };
            s.sea_span.push((sea0 as u32, s.sea.len() as u32));
            s.fleet_span.push((fleet0 as u32, s.fleets.len() as u32));
            s.facts.push(facts);
        }
        drop(cache);
        let land = |j: usize| -> &'static [ProvinceId] {
            let u = units[j].1;
            &v.lands[u.kind.index()][u.region.index()]
        };
        let fleets_of = |j: usize| &s.fleets[s.fleet_span[j].0 as usize..s.fleet_span[j].1 as usize];
        // Who could move into each province: (unit, its place among the
        // units that can move there over a border, or `BY_SEA`), the
        // entries of province `d` at `reach[start[d]..start[d + 1]]`.
        const BY_SEA: u16 = u16::MAX;
        s.start.clear();
        s.start.resize(n + 1, 0);
        s.unit_at.clear();
        s.unit_at.resize(n, u32::MAX);
        // Per army, the shores of its fleets beyond its own borders (a span of `beyond`).
        s.beyond.clear();
        s.beyond_span.clear();
        for (j, &(q, _)) in units.iter().enumerate() {
            s.unit_at[q.index()] = j as u32;
            let near = land(j);
            for &d in near {
                s.start[d.index() + 1] += 1;
            }
            let from = s.beyond.len() as u32;
            let (a, b) = s.sea_span[j];
            for &d in &s.sea[a as usize..b as usize] {
                if !near.contains(&d) {
                    s.start[d.index() + 1] += 1;
                    s.beyond.push(d);
                }
            }
            s.beyond_span.push((from, s.beyond.len() as u32));
        }
        for d in 0..n {
            s.start[d + 1] += s.start[d];
        }
        s.fill.clear();
        s.fill.extend_from_slice(&s.start[..n]);
        s.reach.clear();
        s.reach.resize(s.start[n] as usize, (0, 0));
        let slot_of = |x: &Unit| x.kind.index() * map.num_regions() + x.region.index();
        for (j, &(_, u)) in units.iter().enumerate() {
            let ranks = table.mover_rank.get(slot_of(&u)).map_or(&[][..], |r| &r[..]);
            for (b, &d) in land(j).iter().enumerate() {
                let at = &mut s.fill[d.index()];
                s.reach[*at as usize] = (j as u32, ranks.get(b).copied().unwrap_or(BY_SEA - 1));
                *at += 1;
            }
            let (a, b) = s.beyond_span[j];
            for &d in &s.beyond[a as usize..b as usize] {
                let at = &mut s.fill[d.index()];
                s.reach[*at as usize] = (j as u32, BY_SEA);
                *at += 1;
            }
        }
        let reaches = |d: ProvinceId| &s.reach[s.start[d.index()] as usize..s.start[d.index() + 1] as usize];
        // The armies each fleet could convoy (by the army's convoy facts):
        // those of the fleet in `f` at `convoyed[conv_start[f]..conv_start[f + 1]]`.
        s.conv_start.clear();
        s.conv_start.resize(n + 1, 0);
        for j in 0..units.len() {
            if s.facts[j].is_some() {
                for &f in fleets_of(j) {
                    s.conv_start[f.index() + 1] += 1;
                }
            }
        }
        for d in 0..n {
            s.conv_start[d + 1] += s.conv_start[d];
        }
        s.fill.clear();
        s.fill.extend_from_slice(&s.conv_start[..n]);
        s.convoyed.clear();
        s.convoyed.resize(s.conv_start[n] as usize, 0);
        for j in 0..units.len() {
            if s.facts[j].is_some() {
                for &f in fleets_of(j) {
                    let at = &mut s.fill[f.index()];
                    s.convoyed[*at as usize] = j as u32;
                    *at += 1;
                }
            }
        }
        let name = |u: &Unit| v.unit_names[u.kind.index()][u.region.index()].as_str();
        let plain = !map.has_edge_flags();
        let fit = codes_fit(map);
        // The support tables are only read here; out of the order table,
        // which numbers what they lack.
        let supports = std::mem::take(&mut table.supports);
        s.out.clear();
        for (i, &(p, u)) in units.iter().enumerate() {
            let start = ids.len() as u32;
            let me = UnitRef::new(Some(u.kind), p);
            let ok = |k: OrderKind| check_order(map, st, &self.rules, &Order::new(u.power, k));
            // Holds, moves over a border and supports built from the
            // borders are what the checks accept on maps without border
            // flags (canals, weak moves): no need to ask for each.
            let trusted = |k: OrderKind| plain || ok(k);
            let mine = name(&u);
            let edges = map.edges(u.kind, u.region);
            // The hold and the moves: numbered once per unit type and region.
            let slot = table.unit_slot(v, u.kind, u.region);
            if let Some(own) = &table.unit_orders[slot] {
                if plain {
                    ids.extend_from_slice(own);
                } else {
                    ids.push(own[0]);
                    for (e, &id) in edges.iter().zip(&own[1..]) {
                        let q = map.province_of(e.to);
                        let d = if map.region(e.to).coast.is_some() {
                            Dest::coast(q, e.to)
                        } else {
                            Dest::new(q)
                        };
                        if ok(OrderKind::Move(me, d, false)) {
                            ids.push(id);
                        }
                    }
                }
            }
            // The text is written only the first time the code is seen.
            let num = |table: &mut OrderTable, code: u64, parts: &[&str]| {
                if fit {
                    table.coded(v, code, || parts.concat())
                } else {
                    table.id(v, &parts.concat())
                }
            };
            if let Some(f) = &s.facts[i] {
                ids.extend_from_slice(&f.move_ids);
            }
            // Supports over land: one read each in the unit's own small
            // table (`OrderTable::supports`), numbered when the variant loaded.
            let near = land(i);
            let mine_sup = supports.get(slot).and_then(|t| t.as_ref());
            let part = |at: usize| -> &[u32] { mine_sup.map_or(&[], |t| t.part(at)) };
            for (a, &q) in near.iter().enumerate() {
                let j = s.unit_at[q.index()];
                if j == u32::MAX {
                    continue;
                }
                let other = units[j as usize].1;
                if !trusted(OrderKind::SupportHold(me, UnitRef::new(Some(other.kind), q))) {
                    continue;
                }
                let rank = table
                    .stand_rank
                    .get(slot_of(&other))
                    .map_or(usize::MAX, |&r| r as usize);
                let id = match part(a).get(rank).copied().unwrap_or(u32::MAX) {
                    u32::MAX => num(
                        table,
                        code(4, u.kind, u.region, Some((other.kind, other.region)), 0),
                        &[mine, " S ", name(&other)],
                    ),
                    id => id,
                };
                ids.push(id);
            }
            for (a, &d) in near.iter().enumerate() {
                // MILA also lists the coast the supported fleet would take.
                let split = v.split[d.index()];
                let by_rank = part(near.len() + a);
                for &(j, rank) in reaches(d) {
                    let j = j as usize;
                    if j == i {
                        continue;
                    }
                    let (q, other) = units[j];
                    if q == d {
                        continue;
                    }
                    let kind = || OrderKind::SupportMove(me, UnitRef::new(Some(other.kind), q), Dest::new(d));
                    let id = if rank != BY_SEA {
                        if !plain && !ok(kind()) {
                            continue;
                        }
                        by_rank.get(rank as usize).copied().unwrap_or(u32::MAX)
                    } else {
                        // Support of a convoyed move: the route must not need
                        // the supporter; when it cannot, the army's convoy facts say.
                        let legal = if plain {
                            let legal = s.facts[j].as_ref().is_some_and(|f| f.supported_to(p, d));
                            debug_assert_eq!(legal, ok(kind()));
                            legal
                        } else {
                            ok(kind())
                        };
                        if !legal {
                            continue;
                        }
                        u32::MAX
                    };
                    let id = match id {
                        u32::MAX => num(
                            table,
                            code(5, u.kind, u.region, Some((other.kind, other.region)), d.0),
                            &[mine, " S ", name(&other), " - ", &v.prov_names[d.index()]],
                        ),
                        id => id,
                    };
                    ids.push(id);
                    if split {
                        for e in map.edges(other.kind, other.region) {
                            if map.province_of(e.to) == d && map.region(e.to).coast.is_some() {
                                ids.push(num(
                                    table,
                                    code(6, u.kind, u.region, Some((other.kind, other.region)), e.to.0),
                                    &[mine, " S ", name(&other), " - ", &v.region_names[e.to.index()]],
                                ));
                            }
                        }
                    }
                }
            }
            let conv = s.conv_start[p.index()] as usize..s.conv_start[p.index() + 1] as usize;
            for &j in &s.convoyed[conv] {
                let j = j as usize;
                let Some(facts) = &s.facts[j] else { continue };
                if j == i {
                    continue;
                }
                let other = units[j].1;
                let Some(at) = facts.convoys.iter().position(|(fleet, _)| *fleet == p) else {
                    continue;
                };
                match &facts.convoy_ids[at] {
                    (k, r, numbers) if *k == u.kind && *r == u.region => ids.extend_from_slice(numbers),
                    _ => {
                        for &d in &facts.convoys[at].1 {
                            ids.push(num(
                                table,
                                code(7, u.kind, u.region, Some((other.kind, other.region)), d.0),
                                &[mine, " C ", name(&other), " - ", &v.prov_names[d.index()]],
                            ));
                        }
                    }
                }
            }
            s.out.push((p, u, (start, ids.len() as u32 - start)));
        }
        table.supports = supports;
    }
}
