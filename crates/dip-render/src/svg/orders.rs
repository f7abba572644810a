//! A phase's orders and results drawn on the map: each order's mark from
//! its unit to its destination, standoffs, dislodged units.

use super::*;

impl<'a> Picture<'a> {
    /// Each standoff's mark: a red dashed ring crossed, named by its
    /// province (`data-province`) for pages and tests.
    pub(super) fn write_standoffs(&self, s: &mut String, provinces: &[usize], pal: &Palette) {
        let map = self.map();
        for &p in provinces {
            let id = ProvinceId(p as u16);
            let (x, y) = self.province_point(id);
            let red = pal.fail();
            let _ = write!(
                s,
                r#"<g class="standoff" data-province="{}" pointer-events="none" stroke="{red}" stroke-width="2.2" fill="none"><circle cx="{}" cy="{}" r="15" stroke-dasharray="4 3"/><path d="M{},{} l12,12 M{},{} l-12,12"/></g>"#,
                esc(&map.province(id).abbr),
                fmt(x),
                fmt(y),
                fmt(x - 6.0),
                fmt(y - 6.0),
                fmt(x + 6.0),
                fmt(y - 6.0)
            );
        }
    }

    pub(super) fn dest_point(&self, d: &Dest) -> (f32, f32) {
        match d.coast {
            CoastSpec::Coast(r) => self.region_point(r),
            _ => self.province_point(d.province),
        }
    }

    /// Where the ordered unit stands (a dislodged one beside its province).
    pub(super) fn unit_point(&self, state: &State, pieces: &[Piece], u: &UnitRef, retreat: bool) -> (f32, f32) {
        if retreat {
            if let Some(d) = state.dislodged(u.province) {
                return self.aside(&d.unit);
            }
        }
        // A unit the orders dislodged, drawn beside its province in the
        // position after them (the map of now): its order starts there.
        let map = self.map();
        if let Some(p) = pieces
            .iter()
            .find(|p| p.dislodged && map.province_of(p.unit.region) == u.province)
        {
            return p.at;
        }
        match state.unit(u.province) {
            Some(unit) => self.unit_at(&unit),
            None => match u.coast {
                CoastSpec::Coast(r) => self.region_point(r),
                _ => self.province_point(u.province),
            },
        }
    }

    pub(super) fn write_orders(
        &self,
        s: &mut String,
        state: &State,
        outcome: &PhaseOutcome,
        pieces: &[Piece],
        pal: &Palette,
    ) {
        let map = self.map();
        s.push_str(r#"<g class="orders" fill="none" stroke-linecap="round" pointer-events="none">"#);
        s.push('\n');
        // Moves of each unit, to aim supports and convoys at.
        let mut moving: Vec<Option<(f32, f32)>> = vec![None; map.num_provinces()];
        for r in outcome.orders() {
            if let OrderKind::Move(u, d, _) = r.order.kind {
                moving[u.province.index()] = Some(self.dest_point(&d));
            }
        }
        for r in outcome.orders() {
            let ok = r.verdict.succeeded();
            let colour = pal.order(r.order.power);
            let Some((kind, at)) = order_kind(&r.order.kind) else {
                continue;
            };
            // Each order's marks in a group that says what it was, where
            // its unit stood and how it fared (pages and tests read it).
            let _ = write!(
                s,
                r#"<g class="order {kind} {}" data-at="{}">"#,
                if ok { "succeeded" } else { "failed" },
                esc(&map.province(at).abbr)
            );
            match r.order.kind {
                OrderKind::Hold(u) => hold_mark(s, self.unit_point(state, pieces, &u, false), &colour, ok, pal),
                OrderKind::Move(u, d, via) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let b = self.dest_point(&d);
                    let curved = via || !self.direct(state, &u, &d);
                    arrow(s, a, b, &colour, ok, curved, false, pal);
                }
                OrderKind::Retreat(u, d) => {
                    let a = self.unit_point(state, pieces, &u, true);
                    let b = self.dest_point(&d);
                    arrow(s, a, b, &colour, ok, false, true, pal);
                }
                OrderKind::SupportHold(u, t) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let b = self.unit_point(state, pieces, &t, false);
                    support_hold_mark(s, (a, b), &colour, ok, pal);
                }
                OrderKind::SupportMove(u, t, d) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let from = self.unit_point(state, pieces, &t, false);
                    let to = self.dest_point(&d);
                    // Whether the supported unit moves there; if not, the
                    // move it was asked for is shown too.
                    let moves = moving[t.province.index()].is_some();
                    support_move_mark(s, a, (from, to, moves), &colour, ok, pal);
                }
                OrderKind::Convoy(u, t, d) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let from = self.unit_point(state, pieces, &t, false);
                    let to = self.dest_point(&d);
                    convoy_mark(s, a, (from, to), &colour, ok, pal);
                }
                OrderKind::Build(u) => {
                    let r = match u.coast {
                        CoastSpec::Coast(r) => r,
                        _ => map.main_region(u.province),
                    };
                    build_mark(s, self.region_point(r), &colour, ok, pal);
                }
                OrderKind::Disband(u) => {
                    let retreat = matches!(outcome, PhaseOutcome::Retreat(_));
                    disband_mark(s, self.unit_point(state, pieces, &u, retreat), ok, pal);
                }
                OrderKind::Waive => {}
            }
            s.push_str("</g>");
        }
        s.push_str("</g>\n");
    }

    /// What the units do not show: units built in an adjustment phase
    /// (over the position they were ordered in), units a movement
    /// dislodges (a broken ring where they stood; the position after
    /// shows them beside, marked as dislodged).
    pub(super) fn write_results(&self, s: &mut String, outcome: &PhaseOutcome, pieces: &[Piece], pal: &Palette) {
        match outcome {
            PhaseOutcome::Adjustment(a) => {
                for u in a.built.iter().filter(|u| !pieces.iter().any(|p| p.unit == **u)) {
                    let p = Piece {
                        unit: *u,
                        at: self.region_point(u.region),
                        dislodged: false,
                        opacity: 0.85,
                    };
                    self.write_piece(s, &p, pal);
                }
            }
            PhaseOutcome::Movement(m) => {
                let aside = |d: &Dislodged| pieces.iter().any(|p| p.dislodged && p.unit == d.unit);
                for d in m.dislodged.iter().filter(|d| !aside(d)) {
                    let (x, y) = self.region_point(d.unit.region);
                    let _ = write!(
                        s,
                        r#"<circle class="dislodged" cx="{}" cy="{}" r="15" fill="none" stroke="{}" stroke-width="2.6" stroke-dasharray="8 4"/>"#,
                        fmt(x),
                        fmt(y),
                        pal.fail()
                    );
                }
            }
            PhaseOutcome::Retreat(_) => {}
        }
    }

    /// Can the unit move there without a convoy?
    pub(super) fn direct(&self, state: &State, u: &UnitRef, d: &Dest) -> bool {
        let Some(unit) = state.unit(u.province) else {
            return true;
        };
        self.map().reaches(unit.kind, unit.region, d.province)
            || self
                .map()
                .moves_into(unit.kind, unit.region, d.province)
                .next()
                .is_some()
    }
}
