//! The legal orders of a phase (`get_all_possible_orders`), computed
//! once per position as numbers of the variant's order table.

use super::{Game, OrderTable, VariantData};
use dip_core::{CoastSpec, Order, OrderKind, PhaseKind, PowerId, ProvinceId, RegionId, UnitTypeId};
use std::sync::Arc;

/// The legal orders of the current phase, computed once.
#[derive(Debug, Default)]
pub struct Possible {
    /// The orders of every location, one location after another: numbers
    /// in the variant's `OrderTable`.
    ids: Vec<u32>,
    /// Per location (as `VariantData::locs`): where its orders are in `ids`
    /// (a coast shares its province's).
    spans: Vec<(u32, u32)>,
    /// The locations each power can order, power after power, each
    /// power's by name (provinces: their index in `VariantData::locs`
    /// too); each power's span of them.
    orderable: Vec<ProvinceId>,
    orderable_span: Vec<(u32, u32)>,
}

impl Possible {
    /// The locations power `p` can order, by name.
    pub fn orderable(&self, p: PowerId) -> &[ProvinceId] {
        self.orderable_span
            .get(p.index())
            .map_or(&[], |&(a, b)| &self.orderable[a as usize..b as usize])
    }

    /// Every order number, location after location (see `span`).
    pub fn all_ids(&self) -> &[u32] {
        &self.ids
    }

    /// Where the orders of location `i` are in `all_ids`.
    pub fn span(&self, i: usize) -> std::ops::Range<usize> {
        self.spans
            .get(i)
            .map_or(0..0, |&(start, len)| start as usize..(start + len) as usize)
    }

    /// The order numbers of location `i`.
    pub fn ids(&self, i: usize) -> &[u32] {
        self.spans
            .get(i)
            .map_or(&[], |&(start, len)| &self.ids[start as usize..(start + len) as usize])
    }

    /// The orders of location `i`, as text.
    pub fn orders(&self, v: &VariantData, i: usize) -> Vec<String> {
        let table = v.orders.lock().unwrap_or_else(|e| e.into_inner());
        self.ids(i)
            .iter()
            .map(|&id| table.texts[id as usize].to_string())
            .collect()
    }
}

impl Game {
    /// Every legal order of the phase, computed once until something changes.
    pub fn possible(&mut self) -> Arc<Possible> {
        self.possible_ref();
        self.possible.clone().unwrap_or_default()
    }

    /// As [`possible`](Self::possible), borrowed.
    pub fn possible_ref(&mut self) -> &Possible {
        let p = match self.possible.take() {
            Some(p) => p,
            None => Arc::new(self.compute_possible()),
        };
        self.possible.insert(p)
    }

    pub(super) fn compute_possible(&mut self) -> Possible {
        let v = self.v;
        if self.done {
            return Possible::default();
        }
        let mut ids: Vec<u32> = Vec::with_capacity(640);
        let mut spans: Vec<(u32, u32)> = vec![(0, 0); v.locs.len()];
        // (power, location) in any order; sorted below.
        let mut orderable: Vec<(PowerId, ProvinceId)> = Vec::with_capacity(64);
        let mut guard = v.orders.lock().unwrap_or_else(|e| e.into_inner());
        let table = &mut *guard;
        match self.state.phase.kind {
            PhaseKind::Movement => {
                let mut scratch = std::mem::take(&mut self.scratch);
                self.movement_orders(table, &mut scratch, &mut ids);
                for &(p, u, span) in &scratch.out {
                    orderable.push((u.power, p));
                    give_span(v, &mut spans, p, u.region, span);
                }
                self.scratch = scratch;
            }
            PhaseKind::Retreat => {
                for (p, d) in self.state.all_dislodged() {
                    orderable.push((d.unit.power, p));
                    let start = ids.len() as u32;
                    self.retreat_orders(table, p, &d, &mut ids);
                    give_span(v, &mut spans, p, d.unit.region, (start, ids.len() as u32 - start));
                }
            }
            PhaseKind::Adjustment => self.adjustment_possible(table, &mut ids, &mut spans, &mut orderable),
        }
        let (orderable, orderable_span) = by_power_and_name(v, &orderable);
        Possible {
            ids,
            spans,
            orderable,
            orderable_span,
        }
    }

    /// The builds, disbands and WAIVEs of an adjustment phase, gathered by
    /// location into `ids` and `spans`; the locations each power can order.
    fn adjustment_possible(
        &self,
        table: &mut OrderTable,
        ids: &mut Vec<u32>,
        spans: &mut [(u32, u32)],
        orderable: &mut Vec<(PowerId, ProvinceId)>,
    ) {
        let map = self.map();
        let v = self.v;
        // (location, order) in the order found; each location's
        // orders are then gathered in that order.
        let mut by_loc: Vec<(u32, u32)> = Vec::with_capacity(64);
        let coast_slot = |r: RegionId| -> Option<usize> { v.coast_loc[r.index()] };
        let waive = table.id(v, "WAIVE");
        let balances = dip_core::adjustment::balances(map, &self.state);
        for power in map.power_ids() {
            // A power whose centres pay for its units exactly has no orders.
            if balances[power.index()] == 0 {
                continue;
            }
            let opts =
                dip_core::legal::adjustment_orders_with_balance(map, &self.state, power, balances[power.index()]);
            let waives = opts.iter().any(|o| matches!(o.kind, OrderKind::Waive));
            let mut locs: Vec<ProvinceId> = Vec::new();
            for o in &opts {
                let Some(u) = o.unit() else { continue };
                let region = match (o.kind, u.coast) {
                    (OrderKind::Build(_), CoastSpec::Coast(r)) => Some(r),
                    (OrderKind::Disband(_), _) => self.state.unit(u.province).map(|x| x.region),
                    _ => None,
                };
                let id = self.adjustment_id(table, o);
                by_loc.push((u.province.0 as u32, id));
                if let Some(i) = region.and_then(coast_slot) {
                    by_loc.push((i as u32, id));
                }
                if !locs.contains(&u.province) {
                    locs.push(u.province);
                }
            }
            if waives {
                for &p in &locs {
                    by_loc.push((p.0 as u32, waive));
                    for &r in map.coasts(p) {
                        if let Some(i) = coast_slot(r) {
                            by_loc.push((i as u32, waive));
                        }
                    }
                }
            }
            orderable.extend(locs.iter().map(|&p| (power, p)));
        }
        by_loc.sort_by_key(|&(i, _)| i);
        for (k, &(i, id)) in by_loc.iter().enumerate() {
            if k == 0 || by_loc[k - 1].0 != i {
                spans[i as usize] = (ids.len() as u32, 0);
            }
            spans[i as usize].1 += 1;
            ids.push(id);
        }
    }
}

/// Orders of the unit in `p` (standing in region `r`) go under the
/// province and, for a coast, under the coast too (the same span).
#[inline]
fn give_span(v: &VariantData, spans: &mut [(u32, u32)], p: ProvinceId, r: RegionId, span: (u32, u32)) {
    spans[p.index()] = span;
    if let Some(i) = v.coast_loc[r.index()] {
        spans[i] = span;
    }
}

/// Locations by power, then name, and each power's span of them.
type ByPower = (Vec<ProvinceId>, Vec<(u32, u32)>);

/// The locations each power can order, by power, then name; and each
/// power's span of them.
fn by_power_and_name(v: &VariantData, orderable: &[(PowerId, ProvinceId)]) -> ByPower {
    let found = by_power_and_name_in_bits(v, orderable).unwrap_or_else(|| by_power_and_name_sorted(v, orderable));
    debug_assert_eq!(found, by_power_and_name_sorted(v, orderable));
    found
}

/// As `by_power_and_name`, in order by marking each location in a set of
/// (power, place by name) and reading the set back, which costs less than
/// sorting; `None` if a power is unknown or a location is listed twice.
fn by_power_and_name_in_bits(v: &VariantData, orderable: &[(PowerId, ProvinceId)]) -> Option<ByPower> {
    let powers = v.powers.len();
    // Words of the set per power.
    let stride = v.by_name.len().div_ceil(64);
    if stride == 0 {
        return None;
    }
    let mut bits = vec![0u64; powers * stride];
    for &(power, p) in orderable {
        let rank = *v.name_rank.get(p.index())? as usize;
        *bits.get_mut(power.index() * stride + rank / 64)? |= 1 << (rank % 64);
    }
    let mut out: Vec<ProvinceId> = Vec::with_capacity(orderable.len());
    let mut orderable_span = vec![(0u32, 0u32); powers];
    for (power, words) in bits.chunks_exact(stride).enumerate() {
        let from = out.len() as u32;
        for (w, &word) in words.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                out.push(v.by_name[w * 64 + word.trailing_zeros() as usize]);
                word &= word - 1;
            }
        }
        if out.len() as u32 > from {
            orderable_span[power] = (from, out.len() as u32);
        }
    }
    (out.len() == orderable.len()).then_some((out, orderable_span))
}

/// As `by_power_and_name`, by sorting.
fn by_power_and_name_sorted(
    v: &VariantData,
    orderable: &[(PowerId, ProvinceId)],
) -> (Vec<ProvinceId>, Vec<(u32, u32)>) {
    // By power, then name: one number each (the power above the name's rank).
    let mut ranked: Vec<u32> = Vec::with_capacity(64);
    ranked.extend(
        orderable
            .iter()
            .map(|&(power, p)| (power.0 as u32) << 24 | v.name_rank[p.index()]),
    );
    ranked.sort_unstable();
    let mut orderable_span = vec![(0u32, 0u32); v.powers.len()];
    for (k, &key) in ranked.iter().enumerate() {
        if let Some(span) = orderable_span.get_mut((key >> 24) as usize) {
            if span.1 == span.0 {
                *span = (k as u32, k as u32);
            }
            span.1 += 1;
        }
    }
    let orderable = ranked
        .iter()
        .map(|&key| v.by_name[(key & 0xff_ffff) as usize])
        .collect();
    (orderable, orderable_span)
}

impl Game {
    /// The retreats and the disband of the unit dislodged from `p`, in the
    /// order of `legal::legal_orders`, by the numbers the variant gave them
    /// when it loaded (the text is written only on maps too large for codes).
    pub(super) fn retreat_orders(
        &self,
        table: &mut OrderTable,
        p: ProvinceId,
        d: &dip_core::Dislodged,
        ids: &mut Vec<u32>,
    ) {
        let map = self.map();
        let u = d.unit;
        let open = dip_core::retreat::retreat_options(map, &self.state, &self.rules, d);
        let slot = u.kind.index() * map.num_regions() + u.region.index();
        match table.retreats.get(slot).and_then(|r| r.as_ref()) {
            Some(by_edge) => {
                for (e, &id) in map.edges(u.kind, u.region).iter().zip(by_edge.iter()) {
                    if open.contains(&e.to) {
                        ids.push(id);
                    }
                }
                ids.push(table.disbands[slot]);
            }
            None => {
                for o in dip_core::legal::legal_orders(map, &self.state, &self.rules, p) {
                    ids.push(table.id(self.v, &self.order_text(&o)));
                }
                return;
            }
        }
        debug_assert!({
            let start = ids.len() - open.len() - 1;
            dip_core::legal::legal_orders(map, &self.state, &self.rules, p)
                .iter()
                .zip(&ids[start..])
                .all(|(o, &id)| table.texts[id as usize] == self.order_text(o))
        });
    }

    /// The number of a build or disband (or waive), from the variant's
    /// tables where they have it.
    pub(super) fn adjustment_id(&self, table: &mut OrderTable, o: &Order) -> u32 {
        let map = self.map();
        let slot = |k: UnitTypeId, r: RegionId| k.index() * map.num_regions() + r.index();
        let found = match o.kind {
            OrderKind::Build(u) => u.kind.and_then(|k| {
                let r = match u.coast {
                    CoastSpec::Coast(r) => r,
                    _ => map.main_region(u.province),
                };
                table.builds.get(slot(k, r)).copied()
            }),
            OrderKind::Disband(u) => self
                .state
                .unit(u.province)
                .and_then(|x| table.disbands.get(slot(x.kind, x.region)).copied()),
            // Numbered when the table was filled: nothing to print.
            OrderKind::Waive => Some(table.id(self.v, "WAIVE")),
            _ => None,
        };
        match found {
            Some(id) if id != u32::MAX => {
                debug_assert_eq!(table.texts[id as usize], self.order_text(o));
                id
            }
            _ => table.id(self.v, &self.order_text(o)),
        }
    }
}
