//! Every legal order of every unit in a movement phase: candidates from
//! the map (neighbours, convoy reach, units that could be helped), kept
//! only where dip's checks accept them.

use super::movement_reach::{index_convoyed, index_movers, slot_of, Mover};
use super::order_table::Supports;
use super::{code, codes_fit, ConvoyFacts, ConvoyMemo, Game, OrderTable, VariantData};
use dip_core::{Dest, Map, Order, OrderKind, ProvinceId, Unit, UnitRef};
use std::sync::Arc;

/// Buffers `movement_orders` fills anew for each position, kept between
/// calls so that listing legal orders allocates nothing once warm.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) units: Vec<(ProvinceId, Unit)>,
    /// Per unit, the provinces it reaches over its borders (`VariantData::lands`).
    pub(super) near_of: Vec<&'static [ProvinceId]>,
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
    pub(super) reach: Vec<Mover>,
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
    /// never disagree. Each unit's orders come kind by kind: the hold and
    /// moves over its borders, moves by convoy, supports of units holding,
    /// supports of moves, convoys.
    pub(super) fn movement_orders(&self, table: &mut OrderTable, s: &mut Scratch, ids: &mut Vec<u32>) {
        let map = self.map();
        s.units.clear();
        s.units.extend(self.state.units());
        // Where each unit can go: by its own borders, and (armies) by convoy.
        self.convoy_groups(s);
        self.convoy_reach(table, s);
        index_movers(self.v, table, s);
        index_convoyed(s, map.num_provinces());
        // The support tables are only read here; out of the order table,
        // which numbers what they lack.
        let supports = std::mem::take(&mut table.supports);
        let mut out = std::mem::take(&mut s.out);
        out.clear();
        let lister = Lister {
            g: self,
            v: self.v,
            map,
            s: &*s,
            supports: &supports,
            plain: !map.has_edge_flags(),
            fit: codes_fit(map),
        };
        for i in 0..s.units.len() {
            let (p, u) = s.units[i];
            let start = ids.len() as u32;
            let unit = lister.unit(table, i);
            lister.hold_and_moves(table, &unit, ids);
            if let Some(f) = &s.facts[i] {
                ids.extend_from_slice(&f.move_ids);
            }
            lister.support_holds(table, &unit, ids);
            lister.support_moves(table, &unit, ids);
            lister.convoys(table, &unit, ids);
            out.push((p, u, (start, ids.len() as u32 - start)));
        }
        s.out = out;
        table.supports = supports;
    }
}

/// What listing one position's orders reads, unit by unit.
struct Lister<'a> {
    g: &'a Game,
    v: &'static VariantData,
    map: &'a Map,
    s: &'a Scratch,
    supports: &'a [Option<Supports>],
    /// No border flags (canals, weak moves): holds, moves over a border and
    /// supports built from the borders are what the checks accept, with no
    /// need to ask for each.
    plain: bool,
    /// Order codes fit the map (`codes_fit`).
    fit: bool,
}

/// The unit whose orders are being listed.
struct Listed<'a> {
    /// Its place in `Scratch::units`, province and unit.
    i: usize,
    p: ProvinceId,
    u: Unit,
    me: UnitRef,
    /// Its name in orders (`A PAR`).
    mine: &'a str,
    /// The provinces it reaches over its borders (`VariantData::lands`).
    near: &'static [ProvinceId],
    /// Its slot in the order table's per-unit tables.
    slot: usize,
}

impl<'a> Lister<'a> {
    #[inline]
    fn unit(&self, table: &mut OrderTable, i: usize) -> Listed<'a> {
        let (p, u) = self.s.units[i];
        Listed {
            i,
            p,
            u,
            me: UnitRef::new(Some(u.kind), p),
            mine: self.name(&u),
            near: self.land(i),
            // The hold and the moves: numbered once per unit type and region
            // (most when the variant loaded).
            slot: match slot_of(self.map, &u) {
                slot if table.unit_orders.get(slot).is_some_and(Option::is_some) => slot,
                _ => table.unit_slot(self.v, u.kind, u.region),
            },
        }
    }

    fn name(&self, u: &Unit) -> &'static str {
        self.v.unit_names[u.kind.index()][u.region.index()].as_str()
    }

    /// Whether dip's checks accept order `k` of unit `u`.
    fn ok(&self, u: &Unit, k: OrderKind) -> bool {
        dip_core::movement::check_order(self.map, &self.g.state, &self.g.rules, &Order::new(u.power, k))
    }

    /// The provinces unit `j` reaches over its own borders.
    fn land(&self, j: usize) -> &'static [ProvinceId] {
        self.s.near_of[j]
    }

    /// Who can move into province `d` (see `index_movers`).
    fn reaches(&self, d: ProvinceId) -> &'a [Mover] {
        let s = self.s;
        match s.start.get(d.index()..d.index() + 2) {
            Some(&[a, b]) => s.reach.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The number of the order of code `code`, its text (`parts`) written
    /// only the first time the code is seen.
    fn num(&self, table: &mut OrderTable, code: u64, parts: &[&str]) -> u32 {
        if self.fit {
            table.coded(self.v, code, || parts.concat())
        } else {
            table.id(self.v, &parts.concat())
        }
    }

    /// The unit's own numbers in its small table of supports over land
    /// (`OrderTable::supports`, numbered when the variant loaded), part `at`.
    fn support_part(&self, x: &Listed<'_>, at: usize) -> &'a [u32] {
        self.supports
            .get(x.slot)
            .and_then(|t| t.as_ref())
            .map_or(&[], |t| t.part(at))
    }

    /// The hold and the moves over the unit's borders.
    #[inline]
    fn hold_and_moves(&self, table: &OrderTable, x: &Listed<'_>, ids: &mut Vec<u32>) {
        let Some(own) = &table.unit_orders[x.slot] else {
            return;
        };
        if self.plain {
            ids.extend_from_slice(own);
        } else {
            self.checked_moves(x, own, ids);
        }
    }

    /// The hold and the moves over the unit's borders (numbered in `own`)
    /// that dip's checks accept, on maps with border flags.
    #[inline(never)]
    fn checked_moves(&self, x: &Listed<'_>, own: &[u32], ids: &mut Vec<u32>) {
        ids.push(own[0]);
        let map = self.map;
        for (e, &id) in map.edges(x.u.kind, x.u.region).iter().zip(&own[1..]) {
            let q = map.province_of(e.to);
            let d = if map.region(e.to).coast.is_some() {
                Dest::coast(q, e.to)
            } else {
                Dest::new(q)
            };
            if self.ok(&x.u, OrderKind::Move(x.me, d, false)) {
                ids.push(id);
            }
        }
    }

    /// Supports of the units holding next to it, over land.
    fn support_holds(&self, table: &mut OrderTable, x: &Listed<'_>, ids: &mut Vec<u32>) {
        let s = self.s;
        let own = self.supports.get(x.slot).and_then(|t| t.as_ref());
        for (a, &q) in x.near.iter().enumerate() {
            let j = s.unit_at[q.index()];
            if j == u32::MAX {
                continue;
            }
            let other = s.units[j as usize].1;
            let rank = table.stand_rank.get(slot_of(self.map, &other));
            match (own, rank) {
                (Some(own), Some(&rank)) if self.plain => match own.part(a).get(rank as usize) {
                    Some(&id) if id != u32::MAX => ids.push(id),
                    _ => ids.push(self.support_hold_number(table, x, &other)),
                },
                _ => {
                    if let Some(id) = self.support_hold_checked(table, x, a, (q, &other)) {
                        ids.push(id);
                    }
                }
            }
        }
    }

    /// The number of the support by `x` of `other` in `q`, its `a`-th
    /// neighbour, holding, if dip's checks accept it: on maps with border
    /// flags or without the support tables.
    #[inline(never)]
    fn support_hold_checked(
        &self,
        table: &mut OrderTable,
        x: &Listed<'_>,
        a: usize,
        (q, other): (ProvinceId, &Unit),
    ) -> Option<u32> {
        if !self.plain && !self.ok(&x.u, OrderKind::SupportHold(x.me, UnitRef::new(Some(other.kind), q))) {
            return None;
        }
        let rank = table
            .stand_rank
            .get(slot_of(self.map, other))
            .map_or(usize::MAX, |&r| r as usize);
        match self.support_part(x, a).get(rank) {
            Some(&id) if id != u32::MAX => Some(id),
            _ => Some(self.support_hold_number(table, x, other)),
        }
    }

    /// The number of the support by `x` of `other` holding, its text
    /// written the first time.
    #[cold]
    fn support_hold_number(&self, table: &mut OrderTable, x: &Listed<'_>, other: &Unit) -> u32 {
        self.num(
            table,
            code(4, x.u.kind, x.u.region, Some((other.kind, other.region)), 0),
            &[x.mine, " S ", self.name(other)],
        )
    }

    /// Supports of the moves into the provinces next to it, by other
    /// units over their borders or by convoy.
    fn support_moves(&self, table: &mut OrderTable, x: &Listed<'_>, ids: &mut Vec<u32>) {
        let v = self.v;
        let near = x.near;
        let own = self.supports.get(x.slot).and_then(|t| t.as_ref());
        for (a, &d) in near.iter().enumerate() {
            let movers = self.reaches(d);
            // The unit itself is one of them: alone, nothing to support.
            if movers.len() < 2 {
                continue;
            }
            // MILA also lists the coast the supported fleet would take.
            let split = v.split[d.index()];
            let by_rank = own.map_or(&[][..], |t| t.part(near.len() + a));
            for m in movers {
                if m.q == x.p || m.q == d {
                    continue;
                }
                match (m.by_sea, by_rank.get(m.rank as usize), own) {
                    (false, Some(&id), Some(own)) if self.plain && id != u32::MAX => {
                        ids.push(id);
                        if split {
                            ids.extend_from_slice(own.coasts(near.len() + a, m.rank as usize));
                        }
                    }
                    (false, _, _) => {
                        if let Some(id) = self.support_over_land(table, x, m, d, by_rank) {
                            ids.push(id);
                            if split {
                                self.coast_supports(table, x, m, d, ids);
                            }
                        }
                    }
                    // No border of an army moved only by convoy leads to a coast of `d`.
                    (true, _, _) => {
                        if let Some(id) = self.support_by_sea(table, x, m, (a, d)) {
                            ids.push(id);
                            debug_assert!(
                                !split || {
                                    let before = ids.len();
                                    self.coast_supports(table, x, m, d, ids);
                                    ids.len() == before
                                }
                            );
                        }
                    }
                }
            }
        }
    }

    /// The number of the support by `x` of the move of `m` into `d` over a
    /// border, if dip's checks accept it, where the table's `by_rank` has
    /// none or the map has border flags. (Out of the loop of
    /// `support_moves`, which it would slow.)
    #[inline(never)]
    fn support_over_land(
        &self,
        table: &mut OrderTable,
        x: &Listed<'_>,
        m: &Mover,
        d: ProvinceId,
        by_rank: &[u32],
    ) -> Option<u32> {
        if !self.plain && !self.ok(&x.u, self.support_move(x, m, d)) {
            return None;
        }
        match by_rank.get(m.rank as usize) {
            Some(&id) if id != u32::MAX => Some(id),
            _ => Some(self.support_move_number(table, x, m, d)),
        }
    }

    /// The number of the support by `x` of the move by convoy of `m` into
    /// its `a`-th neighbour `d`, if dip's checks accept it.
    #[inline(never)]
    fn support_by_sea(
        &self,
        table: &mut OrderTable,
        x: &Listed<'_>,
        m: &Mover,
        (a, d): (usize, ProvinceId),
    ) -> Option<u32> {
        self.supports_by_sea(x, m, d)
            .then(|| self.sea_support_number(table, x, m, (a, d)))
    }

    /// The support by unit `x` of the move of `m` into `d`.
    fn support_move(&self, x: &Listed<'_>, m: &Mover, d: ProvinceId) -> OrderKind {
        let other = self.s.units[m.j as usize].1;
        OrderKind::SupportMove(x.me, UnitRef::new(Some(other.kind), m.q), Dest::new(d))
    }

    /// May unit `x` support the move by convoy of `m` into `d`? The route
    /// must not need the supporter; when it cannot, the army's convoy facts say.
    fn supports_by_sea(&self, x: &Listed<'_>, m: &Mover, d: ProvinceId) -> bool {
        if !self.plain {
            return self.ok(&x.u, self.support_move(x, m, d));
        }
        let facts = &self.s.facts[m.j as usize];
        let legal = facts.as_ref().is_some_and(|f| f.supported_to(x.p, d));
        debug_assert_eq!(legal, self.ok(&x.u, self.support_move(x, m, d)));
        legal
    }

    /// The number of the support by `x` of the move of `m` into `d`, its
    /// text written the first time.
    fn support_move_number(&self, table: &mut OrderTable, x: &Listed<'_>, m: &Mover, d: ProvinceId) -> u32 {
        let other = self.s.units[m.j as usize].1;
        self.num(
            table,
            code(5, x.u.kind, x.u.region, Some((other.kind, other.region)), d.0),
            &[x.mine, " S ", self.name(&other), " - ", &self.v.prov_names[d.index()]],
        )
    }

    /// As `support_move_number` for a move by convoy into the `a`-th
    /// province `d` next to `x`, kept in the table's `sea_supports`.
    fn sea_support_number(
        &self,
        table: &mut OrderTable,
        x: &Listed<'_>,
        m: &Mover,
        (a, d): (usize, ProvinceId),
    ) -> u32 {
        let lands = x.near.len();
        if let Some(&mut id) = table.sea_support(x.slot, lands, a, m.rank) {
            if id != u32::MAX {
                return id;
            }
        }
        let id = self.support_move_number(table, x, m, d);
        if let Some(kept) = table.sea_support(x.slot, lands, a, m.rank) {
            *kept = id;
        }
        id
    }

    /// The supports by `x` of the move of `m` to each coast of `d` it can take.
    #[inline(never)]
    fn coast_supports(&self, table: &mut OrderTable, x: &Listed<'_>, m: &Mover, d: ProvinceId, ids: &mut Vec<u32>) {
        let (v, map) = (self.v, self.map);
        let other = self.s.units[m.j as usize].1;
        for e in map.edges(other.kind, other.region) {
            if map.province_of(e.to) == d && map.region(e.to).coast.is_some() {
                ids.push(self.num(
                    table,
                    code(6, x.u.kind, x.u.region, Some((other.kind, other.region)), e.to.0),
                    &[x.mine, " S ", self.name(&other), " - ", &v.region_names[e.to.index()]],
                ));
            }
        }
    }

    /// Convoys of the armies it could carry, by each army's convoy facts.
    #[inline]
    fn convoys(&self, table: &mut OrderTable, x: &Listed<'_>, ids: &mut Vec<u32>) {
        let s = self.s;
        let carried = match s.conv_start.get(x.p.index()..x.p.index() + 2) {
            Some(&[a, b]) => s.convoyed.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        };
        // Most units carry none.
        if !carried.is_empty() {
            self.convoys_of(table, x, carried, ids);
        }
    }

    /// The convoys by `x` of the armies `carried` (places in `Scratch::units`).
    #[inline(never)]
    fn convoys_of(&self, table: &mut OrderTable, x: &Listed<'_>, carried: &[u32], ids: &mut Vec<u32>) {
        let s = self.s;
        for &j in carried {
            let j = j as usize;
            let Some(facts) = &s.facts[j] else { continue };
            if j == x.i {
                continue;
            }
            let other = s.units[j].1;
            let Some(at) = facts.convoys.iter().position(|(fleet, _)| *fleet == x.p) else {
                continue;
            };
            match &facts.convoy_ids[at] {
                (k, r, numbers) if *k == x.u.kind && *r == x.u.region => ids.extend_from_slice(numbers),
                _ => {
                    for &d in &facts.convoys[at].1 {
                        ids.push(self.num(
                            table,
                            code(7, x.u.kind, x.u.region, Some((other.kind, other.region)), d.0),
                            &[x.mine, " C ", self.name(&other), " - ", &self.v.prov_names[d.index()]],
                        ));
                    }
                }
            }
        }
    }
}
