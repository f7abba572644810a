//! Names as MILA writes them: units, places and orders.

use super::{first_two, Game, Name, VariantData};
use dip_core::{CoastSpec, Dest, Order, OrderKind, PhaseKind, ProvinceId, Unit, UnitRef, UnitTypeId};

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

    /// The unit an order names as MILA writes it: the unit on the board
    /// there (with its actual coast) where the order's type allows it,
    /// else as written, an army where no type is written.
    fn board_unit(&self, u: &UnitRef, dislodged: bool) -> UnitRef {
        let map = self.map();
        let actual = if dislodged {
            self.state.dislodged(u.province).map(|d| d.unit)
        } else {
            self.state.unit(u.province)
        };
        match actual {
            Some(a) if u.kind.is_none_or(|k| k == a.kind) => UnitRef {
                kind: Some(a.kind),
                province: u.province,
                coast: match map.region(a.region).coast {
                    Some(_) => CoastSpec::Coast(a.region),
                    None => CoastSpec::None,
                },
            },
            _ => UnitRef {
                kind: u.kind.or_else(|| self.army()),
                ..*u
            },
        }
    }

    /// The type MILA writes where an order names none (`A`).
    fn army(&self) -> Option<UnitTypeId> {
        let map = self.map();
        map.unit_type_ids().find(|&k| map.unit_type(k).letter == 'A')
    }

    /// An order in MILA's syntax: `A PAR - BUR`, `F NTH C A LON - NWY`:
    /// its units as they stand on the board, printed in dip-text's MILA
    /// style.
    pub fn order_text(&self, o: &Order) -> String {
        let retreat = self.state.phase.kind == PhaseKind::Retreat;
        let on_board = |u: &UnitRef| self.board_unit(u, false);
        let kind = match o.kind {
            OrderKind::Hold(u) => OrderKind::Hold(on_board(&u)),
            OrderKind::Move(u, d, via) => OrderKind::Move(on_board(&u), d, via),
            OrderKind::SupportHold(u, t) => OrderKind::SupportHold(on_board(&u), on_board(&t)),
            OrderKind::SupportMove(u, t, d) => OrderKind::SupportMove(on_board(&u), on_board(&t), d),
            // A convoy names the province the army lands in, not a coast.
            OrderKind::Convoy(u, t, d) => OrderKind::Convoy(
                on_board(&u),
                on_board(&t),
                Dest {
                    coast: CoastSpec::None,
                    ..d
                },
            ),
            OrderKind::Retreat(u, d) => OrderKind::Retreat(self.board_unit(&u, true), d),
            OrderKind::Disband(u) => OrderKind::Disband(self.board_unit(&u, retreat)),
            OrderKind::Build(u) => OrderKind::Build(UnitRef {
                kind: u.kind.or_else(|| self.army()),
                ..u
            }),
            OrderKind::Waive => OrderKind::Waive,
        };
        dip_text::format_order_with(&self.v.vocab, &Order { kind, ..*o }, dip_text::Style::Mila)
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
