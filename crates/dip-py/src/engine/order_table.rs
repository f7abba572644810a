//! The variant's order table: every order text its legal-order lists
//! have held, numbered once per process, and the per-unit tables that list
//! holds, moves, supports, retreats, disbands and builds by number.

use super::{is_shore, read_mila, FastMap, VariantData};
use dip_core::{Map, OrderKind, PowerId, ProvinceId, RegionId, UnitTypeId};

/// Every order text a variant's legal-order lists have held, numbered
/// once per process: the same few thousand orders come back phase after
/// phase, so a phase's lists are lists of numbers, a text is written only
/// the first time, and the bindings keep one Python string per number.
#[derive(Default)]
pub struct OrderTable {
    /// What `movement_orders` lists (kind of order and the units, regions
    /// and provinces it names) → number.
    pub(super) by_code: FastMap<u64, u32>,
    /// By unit type and region (`type * regions + region`): the numbers of
    /// the unit's hold and of its move along each of its borders, in the
    /// order of `Map::edges`.
    pub(super) unit_orders: Vec<Option<Box<[u32]>>>,
    /// By unit type and region (as `unit_orders`): the numbers of its
    /// supports over land, set when the variant loads (see [`Supports`]):
    /// a few hundred bytes a unit, so that listing supports reads memory
    /// that stays in the cache.
    pub(super) supports: Vec<Option<Supports>>,
    /// By unit type and region: its place among the units that may stand
    /// in its province (`u16::MAX`: none may stand there).
    pub(super) stand_rank: Vec<u16>,
    /// By unit type and region, for each province of `VariantData::lands`:
    /// its place among the units that can move into that province over a
    /// border.
    pub(super) mover_rank: Vec<Box<[u16]>>,
    /// By unit type and region: its place among the convoyable units in
    /// provinces with convoy neighbours (`u16::MAX`: not one), which
    /// indexes `sea_supports`.
    pub(super) sea_rank: Vec<u16>,
    pub(super) sea_spots: usize,
    /// By unit type and region of the supporter: the numbers of its supports
    /// of moves by convoy, into the `a`-th province of its
    /// `VariantData::lands` by the mover of `sea_rank` `r` at
    /// `[a * sea_spots + r]` (`u32::MAX`: not numbered yet). Filled as
    /// games list them: most are never listed.
    pub(super) sea_supports: Vec<Option<Box<[u32]>>>,
    /// By unit type and region: the numbers of its retreats along each of
    /// its borders (in the order of `Map::edges`), of its disband and of
    /// its build (`u32::MAX`: none).
    pub(super) retreats: Vec<Option<Box<[u32]>>>,
    pub(super) disbands: Vec<u32>,
    pub(super) builds: Vec<u32>,
    pub(super) by_text: crate::text_index::TextIndex,
    /// By number. Never dropped: the table lives as long as its variant,
    /// which is the process, and games borrow the texts.
    pub texts: Vec<&'static str>,
    /// By number: what the text reads as in MILA's syntax, without its power.
    /// Read the first time the text is given to `set_orders` (`None`:
    /// not yet), not when it is numbered: most listed orders are never given.
    pub(super) kinds: Vec<Option<Option<OrderKind>>>,
}

impl OrderTable {
    /// The number of `text`, given one if it has none.
    pub fn id(&mut self, _v: &VariantData, text: &str) -> u32 {
        if let Some(id) = self.by_text.get(&self.texts, text) {
            return id;
        }
        let id = self.texts.len() as u32;
        let text: &'static str = Box::leak(text.into());
        self.texts.push(text);
        self.by_text.insert(&self.texts, id);
        self.kinds.push(None);
        id
    }

    /// The numbers of the hold and moves of a unit of type `k` in region
    /// `r` (see `unit_orders`), made the first time.
    pub(super) fn unit_slot(&mut self, v: &VariantData, k: UnitTypeId, r: RegionId) -> usize {
        let map = v.map;
        let slot = k.index() * map.num_regions() + r.index();
        if self.unit_orders.len() <= slot {
            self.unit_orders
                .resize_with(map.unit_type_ids().count() * map.num_regions(), || None);
        }
        if self.unit_orders[slot].is_none() {
            let mine = &v.unit_names[k.index()][r.index()];
            let mut ids = vec![self.id(v, &format!("{mine} H"))];
            for e in map.edges(k, r) {
                let dn = if map.region(e.to).coast.is_some() {
                    &v.region_names[e.to.index()]
                } else {
                    &v.prov_names[map.province_of(e.to).index()]
                };
                ids.push(self.id(v, &format!("{mine} - {dn}")));
            }
            self.unit_orders[slot] = Some(ids.into_boxed_slice());
        }
        slot
    }

    /// The number of a movement order by its code, its text made by
    /// `text` the first time.
    pub(super) fn coded(&mut self, v: &VariantData, code: u64, text: impl FnOnce() -> String) -> u32 {
        if let Some(&id) = self.by_code.get(&code) {
            return id;
        }
        let id = self.id(v, &text());
        self.by_code.insert(code, id);
        id
    }

    /// Numbers every hold, move and support over land the map allows, so
    /// that games (and the Python strings of the bindings) start with them.
    pub(super) fn prefill(&mut self, v: &VariantData) {
        let map = v.map;
        if !codes_fit(map) {
            return;
        }
        // Room for the orders games will add (convoys, supports of convoyed
        // moves), so that the tables seldom grow while games are played;
        // not much more, as every order given is looked up in `by_text`,
        // which should stay in the cache.
        self.by_text.reserve(1 << 13);
        self.by_code.reserve(1 << 13);
        self.texts.reserve(1 << 14);
        let spots = unit_spots(map);
        let (standers, movers) = self.rank_spots(v, &spots);
        self.prefill_own_orders(v, &spots);
        self.prefill_supports(v, &spots, &standers, &movers);
        self.rank_sea_movers(map, &spots);
    }

    /// The convoyable units in provinces with convoy neighbours, ranked
    /// for `sea_supports`.
    fn rank_sea_movers(&mut self, map: &Map, spots: &[(UnitTypeId, RegionId)]) {
        let slots = map.unit_type_ids().count() * map.num_regions();
        self.sea_rank = vec![u16::MAX; slots];
        self.sea_spots = 0;
        for &(k, r) in spots {
            let p = map.province_of(r);
            if map.unit_type(k).convoyable
                && map.convoy_neighbours(p).iter().next().is_some()
                && self.sea_spots < u16::MAX as usize
            {
                self.sea_rank[slot(map, k, r)] = self.sea_spots as u16;
                self.sea_spots += 1;
            }
        }
        self.sea_supports = vec![None; slots];
    }

    /// Where the number of the support by the unit in `slot` (with
    /// `lands` provinces next to it) of a move by convoy into its `a`-th
    /// neighbour, by the mover of `sea_rank` `rank`, is kept.
    #[inline(always)]
    pub(super) fn sea_support(&mut self, slot: usize, lands: usize, a: usize, rank: u16) -> Option<&mut u32> {
        let spots = self.sea_spots;
        if rank as usize >= spots {
            return None;
        }
        let row = self.sea_supports.get_mut(slot)?;
        let row = row.get_or_insert_with(|| vec![u32::MAX; lands * spots].into_boxed_slice());
        row.get_mut(a * spots + rank as usize)
    }

    /// Who may stand in each province, and who can move into it over a
    /// border: the places that index the support tables (`stand_rank`,
    /// `mover_rank`); each unit's own orders numbered on the way.
    fn rank_spots(&mut self, v: &VariantData, spots: &[(UnitTypeId, RegionId)]) -> (Vec<Spots>, Vec<Spots>) {
        let map = v.map;
        let slots = map.unit_type_ids().count() * map.num_regions();
        let mut standers: Vec<Spots> = vec![Vec::new(); map.num_provinces()];
        let mut movers: Vec<Spots> = vec![Vec::new(); map.num_provinces()];
        self.stand_rank = vec![u16::MAX; slots];
        self.mover_rank = vec![Box::default(); slots];
        for &(k, r) in spots {
            self.unit_slot(v, k, r);
            let p = map.province_of(r);
            self.stand_rank[slot(map, k, r)] = standers[p.index()].len() as u16;
            standers[p.index()].push((k, r));
            let near = &v.lands[k.index()][r.index()];
            self.mover_rank[slot(map, k, r)] = near
                .iter()
                .map(|d| {
                    movers[d.index()].push((k, r));
                    (movers[d.index()].len() - 1) as u16
                })
                .collect();
        }
        (standers, movers)
    }

    /// Retreats, disbands and builds, and moves by convoy.
    fn prefill_own_orders(&mut self, v: &VariantData, spots: &[(UnitTypeId, RegionId)]) {
        let map = v.map;
        let slots = map.unit_type_ids().count() * map.num_regions();
        let shore: Vec<ProvinceId> = map
            .province_ids()
            .filter(|&q| is_shore(map, q) && map.convoy_neighbours(q).iter().next().is_some())
            .collect();
        self.id(v, "WAIVE");
        self.retreats = vec![None; slots];
        self.disbands = vec![u32::MAX; slots];
        self.builds = vec![u32::MAX; slots];
        for &(k, r) in spots {
            let mine = &v.unit_names[k.index()][r.index()];
            self.disbands[slot(map, k, r)] = self.id(v, &format!("{mine} D"));
            self.builds[slot(map, k, r)] = self.id(v, &format!("{mine} B"));
            let mut retreats = Vec::new();
            for e in map.edges(k, r) {
                let dn = if map.region(e.to).coast.is_some() {
                    &v.region_names[e.to.index()]
                } else {
                    &v.prov_names[map.province_of(e.to).index()]
                };
                retreats.push(self.id(v, &format!("{mine} R {dn}")));
            }
            self.retreats[slot(map, k, r)] = Some(retreats.into_boxed_slice());
            let p = map.province_of(r);
            if map.unit_type(k).convoyable && shore.contains(&p) {
                for &q in shore.iter().filter(|&&q| q != p) {
                    let dn = &v.prov_names[q.index()];
                    self.coded(v, code(3, k, r, None, q.0), || format!("{mine} - {dn} VIA"));
                }
            }
        }
    }

    /// Supports over land, in each unit's table (see `Supports`).
    fn prefill_supports(
        &mut self,
        v: &VariantData,
        spots: &[(UnitTypeId, RegionId)],
        standers: &[Spots],
        movers: &[Spots],
    ) {
        let map = v.map;
        let slots = map.unit_type_ids().count() * map.num_regions();
        self.supports = (0..slots).map(|_| None).collect();
        for &(k, r) in spots {
            let supports = self.supports_of(v, (k, r), standers, movers);
            self.supports[slot(map, k, r)] = Some(supports);
        }
    }

    /// The support orders of the unit `k` in `r`: of each unit that may
    /// stand in a province next to it, then of each that can move there.
    fn supports_of(
        &mut self,
        v: &VariantData,
        (k, r): (UnitTypeId, RegionId),
        standers: &[Spots],
        movers: &[Spots],
    ) -> Supports {
        let map = v.map;
        let mine = &v.unit_names[k.index()][r.index()];
        let p = map.province_of(r);
        let near = &v.lands[k.index()][r.index()];
        let mut off: Vec<u32> = Vec::with_capacity(2 * near.len());
        let mut at = 0u32;
        for &q in near.iter() {
            off.push(at);
            at += standers[q.index()].len() as u32;
        }
        for &q in near.iter() {
            off.push(at);
            at += movers[q.index()].len() as u32;
        }
        let mut ids = vec![u32::MAX; at as usize];
        // Per entry of `ids`: the supports to the coasts it names.
        let mut coasts: Vec<Vec<u32>> = vec![Vec::new(); at as usize];
        for (a, &q) in near.iter().enumerate() {
            for (rank, &(k2, r2)) in standers[q.index()].iter().enumerate() {
                let theirs = &v.unit_names[k2.index()][r2.index()];
                ids[off[a] as usize + rank] =
                    self.coded(v, code(4, k, r, Some((k2, r2)), 0), || format!("{mine} S {theirs}"));
            }
            for (rank, &(k2, r2)) in movers[q.index()].iter().enumerate() {
                let q2 = map.province_of(r2);
                if q2 == p || q2 == q {
                    continue;
                }
                let theirs = &v.unit_names[k2.index()][r2.index()];
                let dn = &v.prov_names[q.index()];
                let at = off[near.len() + a] as usize + rank;
                ids[at] = self.coded(v, code(5, k, r, Some((k2, r2)), q.0), || {
                    format!("{mine} S {theirs} - {dn}")
                });
                for e in map.edges(k2, r2) {
                    if map.province_of(e.to) == q && map.region(e.to).coast.is_some() {
                        let cn = &v.region_names[e.to.index()];
                        coasts[at].push(self.coded(v, code(6, k, r, Some((k2, r2)), e.to.0), || {
                            format!("{mine} S {theirs} - {cn}")
                        }));
                    }
                }
            }
        }
        let mut coast_start = Vec::with_capacity(coasts.len() + 1);
        coast_start.push(0);
        for c in &coasts {
            coast_start.push(coast_start[coast_start.len() - 1] + c.len() as u32);
        }
        let ends = off.iter().skip(1).copied().chain([at]);
        Supports {
            parts: off.iter().copied().zip(ends).collect(),
            ids: ids.into_boxed_slice(),
            coast_start: coast_start.into_boxed_slice(),
            coast_ids: coasts.concat().into_boxed_slice(),
        }
    }

    /// The number of a text already listed, what it reads as, and the
    /// table's copy of the text (one lookup; the text is read the first
    /// time it is given).
    pub fn find(&mut self, v: &VariantData, text: &str) -> Option<(u32, Option<OrderKind>, &'static str)> {
        let id = self.by_text.get(&self.texts, text)?;
        let own = self.texts[id as usize];
        let kind = *self.kinds[id as usize].get_or_insert_with(|| read_mila(v, own, PowerId(0)).map(|o| o.kind));
        Some((id, kind, own))
    }

    /// Number `id`, what it reads as, and its text (as [`find`](Self::find)).
    pub fn entry(&mut self, v: &VariantData, id: u32) -> Option<(u32, Option<OrderKind>, &'static str)> {
        let own = *self.texts.get(id as usize)?;
        let kind = *self.kinds[id as usize].get_or_insert_with(|| read_mila(v, own, PowerId(0)).map(|o| o.kind));
        Some((id, kind, own))
    }
}

/// The supports over land of a unit of one type in one region, by
/// number: for the `a`-th province of its `VariantData::lands`, the
/// support to hold of the unit standing there is at `ids[off[a] + r]`, `r`
/// its `OrderTable::stand_rank`; the support of a move there at
/// `ids[off[lands + a] + r]`, `r` the mover's `OrderTable::mover_rank`;
/// part `at` runs from `off[at]` to the next (`parts`: each part's start
/// and end).
/// `u32::MAX` where there is no such order. The supports of a fleet's
/// move to the coasts of a province with coasts (which MILA lists after the
/// support of the move to the province) are at
/// `coast_ids[coast_start[i]..coast_start[i + 1]]`, `i` the place in `ids`
/// of the support of the move to the province.
pub(super) struct Supports {
    parts: Box<[(u32, u32)]>,
    ids: Box<[u32]>,
    coast_start: Box<[u32]>,
    coast_ids: Box<[u32]>,
}

impl Supports {
    /// Part `at`: the numbers by rank.
    #[inline]
    pub(super) fn part(&self, at: usize) -> &[u32] {
        match self.parts.get(at) {
            Some(&(start, end)) => self.ids.get(start as usize..end as usize).unwrap_or(&[]),
            None => &[],
        }
    }

    /// The supports to the coasts that go with the number of rank `rank`
    /// in part `at`.
    pub(super) fn coasts(&self, at: usize, rank: usize) -> &[u32] {
        let Some(&(start, _)) = self.parts.get(at) else {
            return &[];
        };
        let i = start as usize + rank;
        match (self.coast_start.get(i), self.coast_start.get(i + 1)) {
            (Some(&a), Some(&b)) => self.coast_ids.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Units in spots: a unit type and the region it is in.
type Spots = Vec<(UnitTypeId, RegionId)>;

/// Every unit type and region the type may stand in (it has borders).
fn unit_spots(map: &Map) -> Spots {
    let regions = (0..map.num_regions()).map(|r| RegionId(r as u16));
    map.unit_type_ids()
        .flat_map(|k| regions.clone().map(move |r| (k, r)))
        .filter(|&(k, r)| !map.edges(k, r).is_empty())
        .collect()
}

/// The place of a unit type and region in the per-unit tables.
fn slot(map: &Map, k: UnitTypeId, r: RegionId) -> usize {
    k.index() * map.num_regions() + r.index()
}

/// The code of a listed movement order: its form (`tag`), the unit, the
/// other unit it names, and its destination (a region or a province, as
/// the form says). Equal codes are equal texts on maps with fewer than
/// 16,384 regions and 31 unit types (`codes_fit`).
pub(super) fn code(tag: u8, k: UnitTypeId, r: RegionId, other: Option<(UnitTypeId, RegionId)>, dest: u16) -> u64 {
    let (ok, or) = other.map_or((0, 0), |(k, r)| (k.0 as u64 + 1, r.0 as u64));
    (tag as u64) << 61 | (k.0 as u64) << 56 | (r.0 as u64) << 42 | ok << 37 | or << 23 | dest as u64
}

pub(super) fn codes_fit(map: &Map) -> bool {
    map.num_regions() < 1 << 14 && map.num_provinces() < 1 << 14 && map.unit_type_ids().count() < 31
}
