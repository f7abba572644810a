//! Names as MILA writes them: units, places and orders.

use super::{first_two, Game, Name, VariantData};
use dip_core::{CoastSpec, Dest, Order, OrderKind, PhaseKind, ProvinceId, Unit, UnitRef};

impl Game {
    pub fn unit_key(&self, u: &Unit) -> String {
        self.unit_name(u).to_string()
    }

    /// `A PAR`, `F STP/SC`: the variant's own string.
    pub fn unit_name(&self, u: &Unit) -> &'static str {
        let v: &'static VariantData = self.v;
        &v.unit_names[u.kind.index()][u.region.index()]
    }

    pub(super) fn unit_key_at(&self, p: ProvinceId) -> Option<Name> {
        self.state.unit(p).map(|u| Name::Borrowed(self.unit_name(&u)))
    }

    pub(super) fn dislodged_key_at(&self, p: ProvinceId) -> Option<Name> {
        self.state.dislodged(p).map(|d| Name::Borrowed(self.unit_name(&d.unit)))
    }

    pub(super) fn place(&self, p: ProvinceId, c: CoastSpec) -> String {
        match c {
            CoastSpec::Coast(r) => self.v.region_names[r.index()].clone(),
            _ => self.v.prov_names[p.index()].clone(),
        }
    }

    /// The unit an order names, as MILA writes it: with its actual coast.
    pub(super) fn unit_ref(&self, u: &UnitRef, dislodged: bool) -> String {
        let actual = if dislodged {
            self.state.dislodged(u.province).map(|d| d.unit)
        } else {
            self.state.unit(u.province)
        };
        match actual {
            Some(a) if u.kind.is_none_or(|k| k == a.kind) => self.unit_key(&a),
            _ => {
                let letter = u.kind.map(|k| self.map().unit_type(k).letter).unwrap_or('A');
                format!("{letter} {}", self.place(u.province, u.coast))
            }
        }
    }

    /// An order in MILA's syntax: `A PAR - BUR`, `F NTH C A LON - NWY`.
    pub fn order_text(&self, o: &Order) -> String {
        let retreat = self.state.phase.kind == PhaseKind::Retreat;
        let dest = |d: &Dest| self.place(d.province, d.coast);
        match &o.kind {
            OrderKind::Hold(u) => format!("{} H", self.unit_ref(u, false)),
            OrderKind::Move(u, d, via) => format!(
                "{} - {}{}",
                self.unit_ref(u, false),
                dest(d),
                if *via { " VIA" } else { "" }
            ),
            OrderKind::SupportHold(u, t) => format!("{} S {}", self.unit_ref(u, false), self.unit_ref(t, false)),
            OrderKind::SupportMove(u, t, d) => format!(
                "{} S {} - {}",
                self.unit_ref(u, false),
                self.unit_ref(t, false),
                self.place(d.province, d.coast)
            ),
            OrderKind::Convoy(u, t, d) => format!(
                "{} C {} - {}",
                self.unit_ref(u, false),
                self.unit_ref(t, false),
                self.v.prov_names[d.province.index()]
            ),
            OrderKind::Retreat(u, d) => format!("{} R {}", self.unit_ref(u, true), dest(d)),
            OrderKind::Disband(u) => format!("{} D", self.unit_ref(u, retreat)),
            OrderKind::Build(u) => {
                let letter = u.kind.map(|k| self.map().unit_type(k).letter).unwrap_or('A');
                format!("{letter} {} B", self.place(u.province, u.coast))
            }
            OrderKind::Waive => "WAIVE".into(),
        }
    }

    /// The key an order is filed under (one order per key).
    pub(super) fn key_of(&self, o: &Order, text: &str) -> Name {
        let retreat = self.state.phase.kind == PhaseKind::Retreat;
        let v: &'static VariantData = self.v;
        match o.kind {
            OrderKind::Waive => Name::Owned(format!("WAIVE {}", self.orders[o.power.index()].len())),
            OrderKind::Build(u) => Name::Borrowed(&v.prov_names[u.province.index()]),
            _ => {
                let p = o.unit().map(|u| u.province);
                let found = p.and_then(|p| {
                    if retreat {
                        self.dislodged_key_at(p)
                    } else {
                        self.unit_key_at(p)
                    }
                });
                found.unwrap_or_else(|| Name::Owned(first_two(text)))
            }
        }
    }
}
