//! Where each unit of a movement phase can go and who can help it, found
//! once per position for `movement_orders`: the groups of convoy spaces
//! with a fleet, each army's convoy reach and facts, who can move into
//! each province, and which armies each fleet could convoy.

use super::movement_orders::Scratch;
use super::{is_shore, ConvoyFacts, ConvoyKey, FastMap, Game, OrderTable, VariantData, CONVOYS, CONVOYS_MAX};
use dip_core::{Map, ProvinceId, Unit};
use std::sync::{Arc, Mutex, MutexGuard};

/// One unit that could move into a province (an entry of `Scratch::reach`).
#[derive(Clone, Copy, Default)]
pub(super) struct Mover {
    /// Its place in `Scratch::units`, and its province.
    pub(super) j: u16,
    pub(super) q: ProvinceId,
    /// Over a border: its place among the units that can move there over a
    /// border (`OrderTable::mover_rank`); by convoy: its
    /// `OrderTable::sea_rank`.
    pub(super) rank: u16,
    /// It reaches the province only by convoy.
    pub(super) by_sea: bool,
}

impl Game {
    /// The groups of convoy spaces holding a unit able to convoy that
    /// touch one another: an army reaches every fleet of each group next
    /// to it (`convoy::fleets_reachable`, found once for all armies); and
    /// each group's shores. (`s.units` is the position's units.)
    pub(super) fn convoy_groups(&self, s: &mut Scratch) {
        let map = self.map();
        let st = &self.state;
        let n = map.num_provinces();
        // Made once for the map (`group` is sized for it below).
        if s.group.len() != n {
            s.seen = dip_core::ids::BitSet::with_capacity(n);
            s.shores = dip_core::ids::BitSet::with_capacity(n);
        }
        s.group.clear();
        s.group.resize(n, u32::MAX);
        s.members.clear();
        s.member_span.clear();
        // Only a province with a unit may convoy: over the units, which
        // are in the provinces' order.
        for k in 0..s.units.len() {
            let q = s.units[k].0;
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
    }

    /// Each unit's convoy reach (`s.units`, by `s.sea_span`, `s.fleet_span`):
    /// the shores beyond the fleets it reaches (`s.sea`), those fleets
    /// (`s.fleets`) and, for an army with fleets in reach, its convoy facts
    /// (`s.facts`), from this game's memo or the process-wide cache.
    pub(super) fn convoy_reach(&self, table: &mut OrderTable, s: &mut Scratch) {
        let n = self.map().num_provinces();
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
        for j in 0..s.units.len() {
            let (p, u) = s.units[j];
            let (sea0, fleet0) = (s.sea.len(), s.fleets.len());
            if self.map().unit_type(u.kind).convoyable && !s.member_span.is_empty() {
                let near = self.fleets_in_reach(s, p);
                self.shores_beyond(s, p, fleet0, near);
            }
            let facts = if s.fleets.len() == fleet0 {
                None
            } else {
                Some(self.army_convoy_facts(table, s, &mut cache, (p, u), rules_hash, (sea0, fleet0)))
            };
            s.sea_span.push((sea0 as u32, s.sea.len() as u32));
            s.fleet_span.push((fleet0 as u32, s.fleets.len() as u32));
            s.facts.push(facts);
        }
        drop(cache);
    }

    /// Pushes onto `s.fleets` the fleets an army in `p` reaches, sorted
    /// (`convoy::fleets_reachable`), from the convoy groups next to it;
    /// returns those groups, or `None` when there are too many to note.
    #[inline]
    fn fleets_in_reach(&self, s: &mut Scratch, p: ProvinceId) -> Option<([u32; 8], usize)> {
        let map = self.map();
        let st = &self.state;
        let fleet0 = s.fleets.len();
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
        (!many).then_some((near, count))
    }

    /// Pushes onto `s.sea` the shores beyond the fleets from `fleet0` on,
    /// but `p`: those of the one group next to it when it is one (found
    /// once per group), else each fleet's, each once.
    #[inline]
    fn shores_beyond(&self, s: &mut Scratch, p: ProvinceId, fleet0: usize, near: Option<([u32; 8], usize)>) {
        let map = self.map();
        if s.fleets.len() == fleet0 {
            return;
        }
        if let Some((near, 1)) = near {
            let (a, b) = s.shore_span[near[0] as usize];
            s.sea
                .extend(s.group_shores[a as usize..b as usize].iter().filter(|&&q| q != p));
            return;
        }
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

    /// The convoy facts of the unit `(p, u)` with the fleets from `fleet0`
    /// and shores from `sea0` in reach: this game's memo when its fleets
    /// are the same as last time (most fleets stay a phase or more), else
    /// the process-wide cache (locked into `cache` on first need), else
    /// found and kept in both.
    #[inline]
    fn army_convoy_facts(
        &self,
        table: &mut OrderTable,
        s: &mut Scratch,
        cache: &mut Option<ConvoyCache>,
        (p, u): (ProvinceId, Unit),
        rules_hash: u64,
        (sea0, fleet0): (usize, usize),
    ) -> Arc<ConvoyFacts> {
        let map = self.map();
        let n = map.num_provinces();
        let fleets = &s.fleets[fleet0..];
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
        let memo = &mut s.memo[p.index()];
        match memo {
            Some((k, r, b, h, f)) if small && (*k, *r, *b, *h) == (u.kind, u.region, bits, rules_hash) => f.clone(),
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
                        .get_or_init(|| Mutex::new(FastMap::with_capacity_and_hasher(1 << 12, Default::default())))
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
                f
            }
        }
    }
}

/// The process-wide cache of convoy facts, once locked.
type ConvoyCache = MutexGuard<'static, FastMap<ConvoyKey, Arc<ConvoyFacts>>>;

/// Who could move into each province (`Mover`), the entries of
/// province `d` at `s.reach[s.start[d]..s.start[d + 1]]`; each unit by its
/// province in `s.unit_at`; each army's shores beyond its own borders in
/// `s.beyond`.
pub(super) fn index_movers(v: &'static VariantData, table: &OrderTable, s: &mut Scratch) {
    let map = v.map;
    let n = map.num_provinces();
    let units = &s.units;
    s.near_of.clear();
    s.near_of.extend(
        units
            .iter()
            .map(|(_, u)| &v.lands[u.kind.index()][u.region.index()][..]),
    );
    s.start.clear();
    s.start.resize(n + 1, 0);
    s.unit_at.clear();
    s.unit_at.resize(n, u32::MAX);
    // Per army, the shores of its fleets beyond its own borders (a span of `beyond`).
    s.beyond.clear();
    s.beyond_span.clear();
    // The unit's own neighbours, marked while its shores are sorted out
    // (`shores` is free here: `convoy_groups` is done with it).
    let near_mark = &mut s.shores;
    near_mark.clear();
    for (j, ((&(q, _), &near), &(a, b))) in units.iter().zip(&s.near_of).zip(&s.sea_span).enumerate() {
        s.unit_at[q.index()] = j as u32;
        for &d in near {
            s.start[d.index() + 1] += 1;
        }
        let from = s.beyond.len() as u32;
        if a < b {
            for &d in near {
                near_mark.insert(d.index());
            }
            for &d in &s.sea[a as usize..b as usize] {
                if !near_mark.contains(d.index()) {
                    s.start[d.index() + 1] += 1;
                    s.beyond.push(d);
                }
            }
            for &d in near {
                near_mark.remove(d.index());
            }
        }
        s.beyond_span.push((from, s.beyond.len() as u32));
    }
    running_sum(&mut s.start);
    s.fill.clear();
    s.fill.extend_from_slice(&s.start[..n]);
    s.reach.clear();
    s.reach.resize(s.start[n] as usize, Mover::default());
    let each = units.iter().zip(&s.near_of).zip(&s.beyond_span);
    for (j, ((&(q, u), &near), &(a, b))) in each.enumerate() {
        let slot = slot_of(map, &u);
        let ranks = table.mover_rank.get(slot).map_or(&[][..], |r| &r[..]);
        let mover = |rank: u16, by_sea: bool| Mover {
            j: j as u16,
            q,
            rank,
            by_sea,
        };
        for (k, &d) in near.iter().enumerate() {
            let at = &mut s.fill[d.index()];
            s.reach[*at as usize] = mover(ranks.get(k).copied().unwrap_or(u16::MAX), false);
            *at += 1;
        }
        let sea_rank = table.sea_rank.get(slot).copied().unwrap_or(u16::MAX);
        for &d in &s.beyond[a as usize..b as usize] {
            let at = &mut s.fill[d.index()];
            s.reach[*at as usize] = mover(sea_rank, true);
            *at += 1;
        }
    }
}

/// The armies each fleet could convoy (by the army's convoy facts): those
/// of the fleet in `f` at `s.convoyed[s.conv_start[f]..s.conv_start[f + 1]]`.
pub(super) fn index_convoyed(s: &mut Scratch, n: usize) {
    let units = &s.units;
    let fleets_of = |j: usize| &s.fleets[s.fleet_span[j].0 as usize..s.fleet_span[j].1 as usize];
    s.conv_start.clear();
    s.conv_start.resize(n + 1, 0);
    for j in 0..units.len() {
        if s.facts[j].is_some() {
            for &f in fleets_of(j) {
                s.conv_start[f.index() + 1] += 1;
            }
        }
    }
    running_sum(&mut s.conv_start);
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
}

/// Counts made running totals: each entry the sum of those up to it.
fn running_sum(counts: &mut [u32]) {
    let mut sum = 0;
    for c in counts {
        sum += *c;
        *c = sum;
    }
}

/// The slot of a unit's type and region in the order table's per-unit tables.
pub(super) fn slot_of(map: &Map, x: &Unit) -> usize {
    x.kind.index() * map.num_regions() + x.region.index()
}
