//! Where MILA adjudicates by a convention of its own that the DATC
//! allows: when an adjacent move goes by convoy, supports that name a
//! coast, orders to another power's unit, and the words of its results.

use super::{chain, reach, Game, NO_CONVOY, VOID};
use dip_core::{CoastSpec, Order, OrderKind, ProvinceId};

impl Game {
    /// Does support `o` name a coast other than the one the supported
    /// unit moves to?
    pub(super) fn support_misses_coast(&self, o: &Order, orders: &[Order]) -> bool {
        let OrderKind::SupportMove(_, t, d) = o.kind else {
            return false;
        };
        let CoastSpec::Coast(r) = d.coast else {
            return false;
        };
        orders.iter().any(|x| match x.kind {
            OrderKind::Move(u, to, _) if u.province == t.province && to.province == d.province => {
                matches!(to.coast, CoastSpec::Coast(r2) if r2 != r)
            }
            _ => false,
        })
    }

    /// Why a movement order given (under NO_CHECK) cannot be its unit's:
    /// `Some(true)` when the unit is another power's, `Some(false)` when
    /// it names a coast the unit is not on.
    pub(super) fn not_its_unit(&self, o: &Order) -> Option<bool> {
        let u = o.unit()?;
        let actual = self.state.unit(u.province)?;
        if actual.power != o.power {
            return Some(true);
        }
        match u.coast {
            CoastSpec::Coast(r) if r != actual.region => Some(false),
            _ => None,
        }
    }

    /// MILA's convention for moves that could go by land or by sea: by
    /// convoy when convoy orders for it form a chain and the order says
    /// `VIA` or one of the convoying fleets is the army's own.
    pub(super) fn convoy_intent(&self, orders: &mut [Order]) {
        let map = self.map();
        // The convoy orders (by place in `orders`), each checked only when
        // a move could go by it: most convoys of a phase carry no move.
        let convoys: Vec<(usize, ProvinceId, ProvinceId, ProvinceId)> = orders
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o.kind {
                OrderKind::Convoy(f, a, to) => Some((i, f.province, a.province, to.province)),
                _ => None,
            })
            .collect();
        // A convoy order that could not be carried out (NO_CHECK lets it
        // through) shows no intent.
        let mut usable: Vec<Option<bool>> = vec![None; convoys.len()];
        for i in 0..orders.len() {
            let OrderKind::Move(u, d, via) = orders[i].kind else {
                continue;
            };
            // A move not by `VIA` that no convoy order names stays as it is,
            // without looking at the map.
            let named = convoys.iter().any(|&(_, _, a, to)| a == u.province && to == d.province);
            if !via && !named {
                continue;
            }
            let adjacent = self
                .state
                .unit(u.province)
                .is_some_and(|x| map.reaches(x.kind, x.region, d.province));
            if !adjacent {
                continue;
            }
            let mut fleets: Vec<ProvinceId> = Vec::new();
            let mut own = false;
            for (c, &(j, f, a, to)) in convoys.iter().enumerate() {
                if a == u.province
                    && to == d.province
                    && *usable[c].get_or_insert_with(|| self.problem(&orders[j]).is_none())
                {
                    fleets.push(f);
                    own |= orders[j].power == orders[i].power;
                }
            }
            let convoyed = !fleets.is_empty() && chain(map, &fleets, u.province, d.province) && (via || own);
            orders[i].kind = OrderKind::Move(u, d, convoyed);
        }
    }

    /// Where MILA labels differently from dip's verdicts (the board is the
    /// same): a support given by the owner of the unit attacked is `void`
    /// where MILA finds it cannot count (a swap, or the supported move is
    /// the strongest there); when a convoyed army gets `no convoy`, its
    /// convoys and supports without a result get `no convoy` too; a convoy
    /// of an army that moved over land, or off every chain of convoys, is
    /// `no convoy`.
    pub(super) fn mila_labels(
        &self,
        orders: &[Order],
        m: &dip_core::movement::MovementOutcome,
        tags: &mut [Option<&'static str>],
    ) {
        let given = tags.to_vec();
        let mut no_convoy: Vec<ProvinceId> = Vec::new();
        for (o, t) in orders.iter().zip(tags.iter()) {
            if let (OrderKind::Move(u, ..), Some(NO_CONVOY)) = (o.kind, t) {
                no_convoy.push(u.province);
            }
        }
        for (i, o) in orders.iter().enumerate() {
            match o.kind {
                OrderKind::SupportMove(_, t, d)
                    if tags[i].is_none()
                        && self.supports_into_own_unit_void(orders, &given, m, o, t.province, d.province) =>
                {
                    tags[i] = Some(VOID);
                }
                // (An illegal convoy, which NO_CHECK lets through, stays void.)
                // (The cheap test first: `problem` adjudicates the order.)
                OrderKind::Convoy(f, a, d)
                    if (tags[i].is_none() || tags[i] == Some(VOID))
                        && self.convoy_unneeded_or_off_chain(orders, f.province, a.province, d.province)
                        && (tags[i].is_none() || self.problem(o).is_none()) =>
                {
                    tags[i] = Some(NO_CONVOY);
                }
                _ => {}
            }
            if tags[i].is_none() {
                let helped = match o.kind {
                    OrderKind::SupportHold(_, t) | OrderKind::SupportMove(_, t, _) | OrderKind::Convoy(_, t, _) => {
                        Some(t.province)
                    }
                    _ => None,
                };
                if helped.is_some_and(|p| no_convoy.contains(&p)) {
                    tags[i] = Some(NO_CONVOY);
                }
            }
        }
    }

    /// Is this support of a move into a unit of the supporter's own
    /// power, which stays, void for MILA: the moving unit would win (or
    /// it is a swap by land), so the support only dislodges its own?
    #[inline]
    fn supports_into_own_unit_void(
        &self,
        orders: &[Order],
        given: &[Option<&'static str>],
        m: &dip_core::movement::MovementOutcome,
        o: &Order,
        t: ProvinceId,
        d: ProvinceId,
    ) -> bool {
        let own = self.state.unit(d).is_some_and(|x| x.power == o.power);
        // The supported unit stays: it has not left its province.
        if !own || m.moves.iter().any(|&(from, _)| from == d) {
            return false;
        }
        let via = move_of(orders, t).is_some_and(|(_, v)| v);
        let swap = !via && move_of(orders, d).is_some_and(|(to, v)| to == t && !v);
        let mine = strength(orders, given, t);
        let others = orders
            .iter()
            .filter_map(|x| match x.kind {
                OrderKind::Move(u, to, _) if to.province == d && u.province != t => {
                    Some(strength(orders, given, u.province))
                }
                _ => None,
            })
            .max()
            .unwrap_or(0)
            .max(strength(orders, given, d));
        swap || mine > others
    }

    /// Does the convoy by the fleet in `f` of the army in `a` to `d` fail
    /// for want of one (MILA's `no convoy`): the army goes by land, or the
    /// fleet is not on a chain of the convoys ordered? Only a convoy of an
    /// army that moves there can; the chain is looked at only then.
    #[inline]
    fn convoy_unneeded_or_off_chain(&self, orders: &[Order], f: ProvinceId, a: ProvinceId, d: ProvinceId) -> bool {
        let map = self.map();
        let moving = move_of(orders, a).is_some_and(|(to, _)| to == d);
        if !moving {
            return false;
        }
        let adjacent = self.state.unit(a).is_some_and(|x| map.reaches(x.kind, x.region, d));
        let by_land = adjacent
            && orders
                .iter()
                .any(|x| matches!(x.kind, OrderKind::Move(u, to, false) if u.province == a && to.province == d));
        let fleets: Vec<ProvinceId> = orders
            .iter()
            .filter_map(|x| match x.kind {
                OrderKind::Convoy(g, b, e) if b.province == a && e.province == d => Some(g.province),
                _ => None,
            })
            .collect();
        let on_chain = reach(map, &fleets, a).contains(&f) && reach(map, &fleets, d).contains(&f);
        by_land || !on_chain
    }
}

/// A unit's strength for MILA's labels: one, plus the supports given to
/// it that carry no label yet.
fn strength(orders: &[Order], given: &[Option<&'static str>], p: ProvinceId) -> usize {
    1 + orders
        .iter()
        .zip(given)
        .filter(|(o, t)| {
            t.is_none()
                && matches!(o.kind, OrderKind::SupportHold(_, x) | OrderKind::SupportMove(_, x, _) if x.province == p)
        })
        .count()
}

/// Where the unit in `p` is ordered to move, and whether by convoy.
fn move_of(orders: &[Order], p: ProvinceId) -> Option<(ProvinceId, bool)> {
    orders.iter().find_map(|o| match o.kind {
        OrderKind::Move(u, d, via) if u.province == p => Some((d.province, via)),
        _ => None,
    })
}
