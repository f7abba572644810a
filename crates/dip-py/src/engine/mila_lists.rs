//! MILA's lists of retreat and adjustment orders (its `power.adjust`):
//! which orders `set_orders` keeps, voids or replaces, how WAIVE fills a
//! power's builds, and which of them an adjustment phase carries out.
//! An agent that picks one order per orderable location (WAIVE among a
//! build site's) gives more orders than builds; MILA drops extra WAIVEs
//! and takes builds in the order given, so dip must do the same.

use super::{first_two, trimmed, Entry, Game, Name, VariantData};
use dip_core::{Order, OrderKind, PhaseKind, PowerId, ProvinceId};
use std::ops::ControlFlow;

/// The word MILA files a list entry under (`word[1]` of its text): the
/// location of a retreat, build or disband; the unit type of a void
/// entry (`VOID A PAR B`); none for WAIVE.
fn location_word(e: &Entry) -> Option<&str> {
    let mut words = e.text.split_whitespace();
    if e.void {
        return words.next();
    }
    words.nth(1)
}

fn is_waive(e: &Entry) -> bool {
    !e.void && matches!(e.order.map(|o| o.kind), Some(OrderKind::Waive))
}

impl Game {
    /// Per power: its units less its centres, counted in one pass over
    /// the board for all powers.
    fn unit_surplus(&self) -> Vec<i64> {
        let mut surplus = vec![0i64; self.orders.len()];
        for (_, u) in self.state.units() {
            if let Some(s) = surplus.get_mut(u.power.index()) {
                *s += 1;
            }
        }
        for &sc in self.map().supply_centers() {
            if let Some(s) = self.state.owner(sc).and_then(|o| surplus.get_mut(o.index())) {
                *s -= 1;
            }
        }
        surplus
    }

    /// Builds (positive) or disbands (negative) power `p` is due, as
    /// MILA's `_add_adjust_orders` counts them: builds no more than its
    /// build sites; with the build sites when builds are due (else none).
    pub(crate) fn adjustment_need(&self, p: PowerId) -> (i64, Vec<ProvinceId>) {
        let units = self.state.units().filter(|(_, u)| u.power == p).count() as i64;
        let centers = self.state.centers_of(self.map(), p).count() as i64;
        let need = centers - units;
        if need > 0 {
            let sites = self.build_sites(p);
            (need.min(sites.len() as i64), sites)
        } else {
            (need, Vec::new())
        }
    }

    /// MILA's build sites: centres the power owns with no unit on them,
    /// home centres only unless the variant builds anywhere (MILA's
    /// BUILD_ANY).
    pub(crate) fn build_sites(&self, p: PowerId) -> Vec<ProvinceId> {
        let map = self.map();
        map.supply_centers()
            .iter()
            .copied()
            .filter(|&c| dip_core::adjustment::can_build_in(map, &self.state, p, c))
            .collect()
    }

    /// The order `text` reads as for power `p`: the variant's table's
    /// reading when the caller found it there, else MILA's syntax, else
    /// dip's general reader.
    fn read_listed(
        &self,
        p: PowerId,
        text: &str,
        found: Option<(u32, Option<OrderKind>, &'static str)>,
    ) -> Result<Order, String> {
        if let Some((_, Some(k), _)) = found {
            return Ok(Order::new(p, k));
        }
        if let Some(o) = self.read_mila(text, p) {
            return Ok(o);
        }
        dip_text::parse_order_with(&self.v.vocab, text, Some(p)).map_err(|e| e.to_string())
    }

    /// MILA's `set_orders` in a retreat or an adjustment phase.
    pub(crate) fn set_list_orders<S: AsRef<str>>(&mut self, p: PowerId, texts: &[S], known: &[u32], replace: bool) {
        // MILA drops empty strings, and no orders left clear the list.
        if texts.iter().all(|t| t.as_ref().is_empty()) {
            self.orders[p.index()].clear();
            self.generation += 1;
            return;
        }
        let v: &'static VariantData = self.v;
        let adjusting = self.state.phase.kind == PhaseKind::Adjustment;
        let (need, sites) = if adjusting {
            self.adjustment_need(p)
        } else {
            (0, Vec::new())
        };
        let errors_before = self.errors.len();
        let mut given: Vec<Entry> = Vec::with_capacity(texts.len());
        // Build sites and retreating units used by this call.
        let mut taken: Vec<ProvinceId> = Vec::new();
        let table = v.orders.lock().unwrap_or_else(|e| e.into_inner());
        let mut table = Some(table).filter(|_| self.possible.is_some());
        for (k, t) in texts.iter().enumerate() {
            let text = trimmed(t.as_ref());
            if adjusting && text == "WAIVE" {
                if need >= 0 {
                    given.push(waive(p));
                } else {
                    self.errors
                        .push("WAIVE is not allowed when units must be disbanded".into());
                    given.push(void(text));
                }
                continue;
            }
            if text.split_whitespace().nth(1).is_none() {
                continue;
            }
            let found = table.as_mut().and_then(|table| match known.get(k) {
                Some(&id) if id != u32::MAX => table.entry(v, id),
                _ => table.find(v, text),
            });
            let at = Facts {
                need,
                sites: &sites,
                taken: &mut taken,
            };
            if self.give_read(p, text, found, at, &mut given).is_break() {
                // Nothing of the call is filed yet: it is given again.
                self.errors.truncate(errors_before);
                self.unread_at = Some(k);
                return;
            }
        }
        drop(table);
        self.file_given(p, given, replace);
        if adjusting {
            fill_waives(&mut self.orders[p.index()], p, need);
        }
        self.generation += 1;
    }

    /// Reads one order given and adds it to `given`: as given when it
    /// passes, void with an error when not. Breaks when it cannot be read
    /// and the caller asked to stop there (`stop_unread`).
    #[inline]
    fn give_read(
        &mut self,
        p: PowerId,
        text: &str,
        found: Option<(u32, Option<OrderKind>, &'static str)>,
        at: Facts<'_>,
        given: &mut Vec<Entry>,
    ) -> ControlFlow<()> {
        let listed = found.map(|(_, _, own)| own);
        match self.read_listed(p, text, found) {
            Err(_) if self.stop_unread => return ControlFlow::Break(()),
            Err(e) => {
                self.errors.push(format!("order `{text}`: {e}"));
                given.push(void(text));
            }
            Ok(o) => {
                let shown = listed.map_or_else(|| Name::Owned(self.order_text(&o)), Name::Borrowed);
                // One of the position's legal orders for its own unit
                // or site passes dip's checks: only MILA's are left.
                let checked = found.is_some_and(|(id, _, _)| self.listed(&o, id));
                let facts = ListFacts {
                    need: at.need,
                    sites: at.sites,
                    taken: at.taken,
                    given,
                    checked,
                };
                match self.list_problem(p, &o, &facts, &shown) {
                    Some(e) => {
                        self.errors.push(format!("order `{text}`: {e}"));
                        given.push(void(&shown));
                    }
                    None => {
                        if let Some(u) = o.unit() {
                            at.taken.push(u.province);
                        }
                        let key = self.key_of(&o, &shown);
                        given.push(Entry {
                            key,
                            text: shown,
                            order: Some(o),
                            void: false,
                        });
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Files the orders read into the power's list: replacing those of the
    /// same units or sites, or (`replace` false, MILA's `set_orders` on a
    /// list) dropping those already ordered, with an error for each.
    fn file_given(&mut self, p: PowerId, mut given: Vec<Entry>, replace: bool) {
        let list = &mut self.orders[p.index()];
        if replace {
            for e in given.iter().filter(|e| !e.void && !is_waive(e)) {
                let at = location_word(e);
                list.retain(|x| is_waive(x) || location_word(x) != at);
            }
        } else {
            let ordered: Vec<String> = list
                .iter()
                .filter(|x| !is_waive(x))
                .filter_map(|x| location_word(x).map(str::to_string))
                .collect();
            let before = given.len();
            given.retain(|e| location_word(e).is_none_or(|w| !ordered.iter().any(|o| o == w)));
            for _ in given.len()..before {
                self.errors
                    .push("a unit or site already ordered was ordered again".into());
            }
        }
        self.orders[p.index()].extend(given);
    }

    /// Why MILA voids order `o` of power `p` in this retreat or adjustment
    /// phase (see `ListFacts`).
    fn list_problem(&self, p: PowerId, o: &Order, at: &ListFacts<'_>, shown: &str) -> Option<String> {
        let ListFacts {
            need,
            sites,
            taken,
            given,
            checked,
        } = *at;
        // dip's own check (an adjudication of the order alone), unless the
        // order is one of those listed, which pass it.
        let dips = || if checked { None } else { self.problem(o) };
        let unit_type_fits = |u: &dip_core::UnitRef, k| u.kind.is_none_or(|x| x == k);
        match (self.state.phase.kind, o.kind) {
            (PhaseKind::Retreat, OrderKind::Retreat(u, _) | OrderKind::Disband(u)) => {
                match self.state.dislodged(u.province) {
                    Some(d) if d.unit.power == p && unit_type_fits(&u, d.unit.kind) => {}
                    _ => return Some("no such unit to retreat".into()),
                }
                if taken.contains(&u.province) {
                    return Some("a second order for a retreating unit".into());
                }
                dips()
            }
            (PhaseKind::Adjustment, OrderKind::Build(u)) => {
                if need < 0 {
                    return Some("units must be disbanded, not built".into());
                }
                if !sites.contains(&u.province) {
                    return Some(format!("{} is not a build site", self.v.prov_names[u.province.index()]));
                }
                if taken.contains(&u.province) {
                    return Some("a second build at one site".into());
                }
                dips()
            }
            (PhaseKind::Adjustment, OrderKind::Disband(u)) => {
                if need >= 0 {
                    return Some("no unit may be disbanded".into());
                }
                match self.state.unit(u.province) {
                    Some(x) if x.power == p && unit_type_fits(&u, x.kind) => {}
                    _ => return Some("no such unit".into()),
                }
                if given.iter().any(|e| !e.void && *e.text == *shown) {
                    return Some("a second order for one unit".into());
                }
                None
            }
            _ => Some("not an order of this phase".into()),
        }
    }

    /// The orders MILA carries out in an adjustment phase, power by power:
    /// builds in the order given while builds are due, disbands while
    /// disbands are due; the rest (WAIVE, orders beyond the count) void.
    /// Returns, for each order given, whether it is carried out.
    pub(crate) fn adjustments_carried_out(&self) -> Vec<Vec<bool>> {
        let surplus = self.unit_surplus();
        self.orders
            .iter()
            .zip(surplus)
            .map(|(list, mut diff)| {
                list.iter()
                    .map(|e| {
                        if e.void {
                            return false;
                        }
                        match e.order.map(|o| o.kind) {
                            Some(OrderKind::Build(_)) if diff < 0 => {
                                diff += 1;
                                true
                            }
                            Some(OrderKind::Disband(_)) if diff > 0 => {
                                diff -= 1;
                                true
                            }
                            _ => false,
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// What `list_problem` reads besides the order: the builds due (`need`;
/// disbands as a negative number), the build sites, the sites and units
/// this call already ordered (`taken`) and its entries so far (`given`),
/// and whether the order is one of the position's legal orders listed for
/// its own unit or site (`checked`).
#[derive(Clone, Copy)]
struct ListFacts<'a> {
    need: i64,
    sites: &'a [ProvinceId],
    taken: &'a [ProvinceId],
    given: &'a [Entry],
    checked: bool,
}

fn waive(p: PowerId) -> Entry {
    Entry {
        key: Name::Borrowed("WAIVE"),
        text: Name::Borrowed("WAIVE"),
        order: Some(Order::new(p, OrderKind::Waive)),
        void: false,
    }
}

fn void(text: &str) -> Entry {
    Entry {
        key: Name::Owned(first_two(text)),
        text: Name::Owned(text.to_string()),
        order: None,
        void: true,
    }
}

/// What an adjustment call knows while it reads the orders given: how
/// many builds (or disbands, negative) are due, the sites free to build
/// on, and the build sites and retreating units used so far.
struct Facts<'a> {
    need: i64,
    sites: &'a [ProvinceId],
    taken: &'a mut Vec<ProvinceId>,
}

/// Extra WAIVEs give way to the orders given (MILA keeps `need` orders
/// when it can), and WAIVEs fill the builds not given.
fn fill_waives(list: &mut Vec<Entry>, p: PowerId, need: i64) {
    while need > 0 && (list.len() as i64) > need {
        match list.iter().position(is_waive) {
            Some(i) => {
                list.remove(i);
            }
            None => break,
        }
    }
    while (list.len() as i64) < need {
        list.push(waive(p));
    }
}
