//! Orders given (`set_orders`): read, checked and filed under their unit
//! as MILA files them.

use super::{Game, Name, VariantData};
use dip_core::{CoastSpec, Dest, Order, OrderKind, PhaseKind, PowerId, RegionId, Unit};
use dip_text::parse_order_with;

/// One order as given to a power.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The unit (`A PAR`, `F STP/SC`), or for a build the province.
    pub key: Name,
    /// As `get_orders` gives it back.
    pub text: Name,
    pub order: Option<Order>,
    /// Refused, but kept: reported `void` (NO_CHECK, retreats, adjustments).
    pub void: bool,
}

impl Entry {
    /// Does `get_orders` list it? Not when void, nor a WAIVE.
    pub fn shown(&self) -> bool {
        !self.void && !matches!(self.order.map(|o| o.kind), Some(OrderKind::Waive))
    }
}

/// Are two names the same? Names borrowed from the variant or its order
/// table are mostly the very same text, which is seen without reading it.
pub(super) fn same(a: &str, b: &str) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.as_ptr() == b.as_ptr() {
        return true;
    }
    // Names of one length differ most at the end (`A PAR`, `A MUN`): the
    // last letters first, here rather than by a call.
    a.bytes().rev().zip(b.bytes().rev()).all(|(x, y)| x == y)
}

/// `text.trim()`, seen at once for a text that starts and ends with an
/// ASCII letter or sign (as orders do); other texts are trimmed.
pub(super) fn trimmed(text: &str) -> &str {
    let plain = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_graphic());
    let bytes = text.as_bytes();
    if plain(bytes.first()) && plain(bytes.last()) {
        text
    } else {
        text.trim()
    }
}

pub(super) fn first_two(text: &str) -> String {
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase()
}

impl Game {
    /// MILA's `set_orders`: each order is read, checked and filed under its
    /// unit; `replace` says whether it replaces an earlier order of the unit.
    pub fn set_orders<S: AsRef<str>>(&mut self, power: PowerId, texts: &[S], replace: bool) {
        self.set_orders_known(power, texts, &[], replace);
    }

    /// As [`set_orders`](Self::set_orders), where `known[k]`, if there and
    /// not `u32::MAX`, is the number of `texts[k]` in the variant's table,
    /// found by the caller among the legal orders listed for this position.
    pub fn set_orders_known<S: AsRef<str>>(&mut self, power: PowerId, texts: &[S], known: &[u32], replace: bool) {
        if self.state.phase.kind != PhaseKind::Movement {
            self.set_list_orders(power, texts, known, replace);
            return;
        }
        // Listed orders are looked up in the variant's table (locked once
        // for the call; `add_order` takes nothing else that locks it).
        let v: &'static VariantData = self.v;
        let mut table = self
            .possible
            .is_some()
            .then(|| v.orders.lock().unwrap_or_else(|e| e.into_inner()));
        for (k, t) in texts.iter().enumerate() {
            let t = trimmed(t.as_ref());
            if !t.is_empty() {
                // A number the caller found is among the legal orders
                // listed for the location the text names.
                let (found, among_listed) = match (table.as_mut(), known.get(k)) {
                    (Some(table), Some(&id)) if id != u32::MAX => (table.entry(v, id), true),
                    (Some(table), _) => (table.find(v, t), false),
                    (None, _) => (None, false),
                };
                self.add_order(power, t, found, among_listed, replace);
                if self.unread_at.is_some() {
                    self.unread_at = Some(k);
                    return;
                }
            }
        }
        self.generation += 1;
    }

    /// MILA's reading of the coast a support names (4.B.4): none for an
    /// army's move; a fleet supporting a fleet gets the coast the supported
    /// fleet can reach (none when it can reach several); an army keeping the
    /// coast it names, which must then be the move's.
    pub(super) fn support_coast(&self, o: &mut Order) {
        let OrderKind::SupportMove(u, t, d) = o.kind else {
            return;
        };
        if !matches!(d.coast, CoastSpec::Coast(_)) {
            return;
        }
        let map = self.map();
        let (Some(me), Some(them)) = (self.state.unit(u.province), self.state.unit(t.province)) else {
            return;
        };
        let fleet = |x: &Unit| map.unit_type(x.kind).uses_coasts;
        let to = if !fleet(&them) {
            Dest::new(d.province)
        } else if fleet(&me) {
            let coasts: Vec<RegionId> = map
                .edges(them.kind, them.region)
                .iter()
                .map(|e| e.to)
                .filter(|&r| map.province_of(r) == d.province && map.region(r).coast.is_some())
                .collect();
            match coasts.as_slice() {
                [one] => Dest::coast(d.province, *one),
                _ => Dest::new(d.province),
            }
        } else {
            d
        };
        o.kind = OrderKind::SupportMove(u, t, to);
    }

    /// Files order `text`; `found` is what the variant's table knows of it
    /// (when legal orders are listed for the position), `among_listed`
    /// whether its number was found among the legal orders listed for the
    /// location the text names.
    pub(super) fn add_order(
        &mut self,
        power: PowerId,
        text: &str,
        found: Option<(u32, Option<OrderKind>, &'static str)>,
        among_listed: bool,
        replace: bool,
    ) {
        if let Some((id, Some(k), own)) = found {
            let o = Order::new(power, k);
            if self.file_listed(power, o, (id, own), among_listed, text, replace) {
                return;
            }
        }
        let kind = self.state.phase.kind;
        let read = match found {
            Some((_, k, _)) => k.map(|k| Order::new(power, k)),
            None => self.read_mila(text, power),
        };
        let mut fast = read;
        if let Some(o) = &mut fast {
            if self.expand {
                self.support_coast(o);
            }
        }
        let (order, legal) = match fast {
            Some(o) if kind == PhaseKind::Movement => {
                let problem = self.problem(&o);
                if let Some(e) = &problem {
                    self.errors.push(format!("order `{text}`: {e}"));
                }
                (o, problem.is_none())
            }
            _ => match parse_order_with(&self.v.vocab, text, Some(power)) {
                // A hold read from words MILA does not read as one (`A PAR
                // - XXX`, `xxx` being DipWork's hold): MILA's reading decides.
                Ok(_) if self.stop_unread && self.held_only_by_dip(power, text) => {
                    self.unread_at = Some(0);
                    return;
                }
                Ok(mut o) => {
                    if self.expand {
                        self.support_coast(&mut o);
                    }
                    let problem = self.problem(&o);
                    if let Some(e) = &problem {
                        self.errors.push(format!("order `{text}`: {e}"));
                    }
                    (o, problem.is_none())
                }
                Err(_) if self.stop_unread => {
                    self.unread_at = Some(0);
                    return;
                }
                Err(e) => {
                    self.errors.push(format!("order `{text}`: {e}"));
                    if self.no_check || kind != PhaseKind::Movement {
                        let key = Name::Owned(first_two(text));
                        self.file(
                            power,
                            Entry {
                                key,
                                text: Name::Owned(text.to_string()),
                                order: None,
                                void: true,
                            },
                            replace,
                        );
                    }
                    return;
                }
            },
        };
        if !legal && kind == PhaseKind::Movement && !self.no_check {
            return;
        }

        let shown = if self.no_check {
            text.to_string()
        } else {
            self.order_text(&order)
        };
        let key = self.key_of(&order, &shown);
        let void = !legal && kind != PhaseKind::Movement;
        self.file(
            power,
            Entry {
                key,
                text: Name::Owned(shown),
                order: Some(order),
                void,
            },
            replace,
        );
    }

    /// Files order `o` (number `id` in the variant's table, whose text is
    /// `own`) when it is one of the legal orders listed, written as
    /// `get_all_possible_orders` writes it: nothing to check or rewrite.
    /// False, filing nothing, when it is not. (`among_listed`: the number
    /// is known to be among the listed orders of the unit's location, whose
    /// owner is then all that is left to check.)
    fn file_listed(
        &mut self,
        power: PowerId,
        o: Order,
        (id, own): (u32, &'static str),
        among_listed: bool,
        text: &str,
        replace: bool,
    ) -> bool {
        let listed = if among_listed {
            self.ordered_by_owner(&o)
        } else {
            self.listed(&o, id)
        };
        if (self.expand && self.support_coast_rewrites(&o)) || !listed {
            return false;
        }
        let key = self.key_of(&o, text);
        let entry = Entry {
            key,
            text: Name::Borrowed(own),
            order: Some(o),
            void: false,
        };
        self.file(power, entry, replace);
        true
    }

    /// Would `support_coast` read `o` otherwise? Only a support of a move
    /// to a coast may be.
    fn support_coast_rewrites(&self, o: &Order) -> bool {
        match o.kind {
            OrderKind::SupportMove(_, _, d) if matches!(d.coast, CoastSpec::Coast(_)) => {
                let mut read = *o;
                self.support_coast(&mut read);
                read != *o
            }
            _ => false,
        }
    }

    /// Under NO_CHECK an order is shown as given (MILA keeps its words):
    /// the last order of `power` filed as `read` is shown as `given`.
    pub fn show_as_given(&mut self, power: PowerId, read: &str, given: &str) {
        if let Some(e) = self.orders[power.index()]
            .iter_mut()
            .rev()
            .find(|e| e.text.as_ref() == read)
        {
            e.text = Name::Owned(given.to_string());
        }
    }

    /// Can `set_orders` read `text`, in MILA's syntax or by dip's reader?
    pub fn readable(&self, power: PowerId, text: &str) -> bool {
        let text = text.trim();
        self.read_mila(text, power).is_some() || parse_order_with(&self.v.vocab, text, Some(power)).is_ok()
    }

    /// Is `text`, in a movement phase, a hold only by dip's general reader
    /// (which reads DipWork's words, and a unit with no order word, as a
    /// hold), not in MILA's syntax? MILA reads such words otherwise: `A PAR
    /// - XXX` as a move to an unknown place, `A PAR` as no order at all.
    pub fn held_only_by_dip(&self, power: PowerId, text: &str) -> bool {
        let text = text.trim();
        self.state.phase.kind == PhaseKind::Movement
            && self.read_mila(text, power).is_none()
            && matches!(
                parse_order_with(&self.v.vocab, text, Some(power)),
                Ok(Order {
                    kind: OrderKind::Hold(_),
                    ..
                })
            )
    }

    /// Is this order (numbered `id` in the variant's table) one of the
    /// cached legal orders of the order's unit (or build site), and the
    /// unit (or site) the ordering power's?
    pub(super) fn listed(&self, o: &Order, id: u32) -> bool {
        let (Some(possible), Some(u)) = (&self.possible, o.unit()) else {
            return false;
        };
        self.ordered_by_owner(o) && possible.ids(u.province.index()).contains(&id)
    }

    /// Is the unit (or build site) order `o` names the ordering power's?
    fn ordered_by_owner(&self, o: &Order) -> bool {
        let Some(u) = o.unit() else {
            return false;
        };
        let p = u.province;
        let owner = match (self.state.phase.kind, o.kind) {
            (PhaseKind::Retreat, _) => self.state.dislodged(p).map(|d| d.unit.power),
            (PhaseKind::Adjustment, OrderKind::Build(_)) => self.state.owner(p),
            _ => self.state.unit(p).map(|x| x.power),
        };
        owner == Some(o.power)
    }

    /// Why the order would be refused in this phase, if it would.
    pub(super) fn problem(&self, o: &Order) -> Option<String> {
        dip_play::order_problem(self.map(), &self.rules, &self.state, o).map(|r| r.describe().to_string())
    }

    /// Files a movement order under its unit.
    pub(super) fn file(&mut self, power: PowerId, e: Entry, replace: bool) {
        let movement = self.state.phase.kind == PhaseKind::Movement;
        let list = &mut self.orders[power.index()];
        if let Some(at) = list.iter().position(|x| same(&x.key, &e.key)) {
            if replace && !self.no_check {
                // MILA keeps orders in a dict by unit: a new order takes
                // the old one's place in `get_orders`.
                list[at] = e;
                return;
            }
            if replace {
                list.retain(|x| !same(&x.key, &e.key));
            } else if !(self.no_check && movement) {
                return;
            }
        }
        list.push(e);
    }

    /// Orders of a power as `get_orders` gives them (refused ones and
    /// WAIVE hidden, as MILA does).
    pub fn orders(&self, power: PowerId) -> Vec<String> {
        self.orders[power.index()]
            .iter()
            .filter(|e| e.shown())
            .map(|e| e.text.to_string())
            .collect()
    }

    /// MILA's `power.adjust` in a retreat or adjustment phase: every
    /// entry, void ones as `VOID <order>`, WAIVEs included.
    pub fn adjust_list(&self, power: PowerId) -> Vec<String> {
        self.orders[power.index()]
            .iter()
            .map(|e| {
                if e.void {
                    format!("VOID {}", e.text)
                } else {
                    e.text.to_string()
                }
            })
            .collect()
    }

    /// (key, text) of each order a power has given, refused ones hidden.
    pub fn order_entries(&self, power: PowerId) -> Vec<(String, String)> {
        self.orders[power.index()]
            .iter()
            .filter(|e| e.shown())
            .map(|e| (e.key.to_string(), e.text.to_string()))
            .collect()
    }

    pub fn clear_orders(&mut self, power: Option<PowerId>) {
        for (i, list) in self.orders.iter_mut().enumerate() {
            if power.is_none_or(|p| p.index() == i) {
                list.clear();
            }
        }
        self.generation += 1;
    }

    /// Has every unit of the power that needs an order one?
    pub fn has_orders(&self, power: PowerId) -> bool {
        !self.orders[power.index()].is_empty()
    }
}
