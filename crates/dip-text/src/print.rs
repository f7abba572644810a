//! Printing orders in a chosen style. Every style reads back to the same
//! order (`parse_order`; for [`Style::Mila`], which names no nation, with
//! the nation given).

use crate::vocab::Vocabulary;
use dip_core::{CoastSpec, Dest, Map, Order, OrderKind, ProvinceId, Terrain, UnitRef};

/// How orders are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// `England: F nth - nwy` (DATC cases, Judge).
    Datc,
    /// `ENG F NTH-NWY` (DipWork's short form).
    Short,
    /// `England: Fleet North Sea -> Norway`.
    Long,
    /// `ENG F(NTH) - Nwy`, `GER build A(Kie)` (DIP).
    Dip,
    /// `F NTH - NWY`, `A PAR - BUR VIA`, `A MUN B`, `WAIVE` (MILA; no nation).
    Mila,
    /// `A Vie-Gal`, `F Stp/sc-Bot`, `A Boh S A Bud-Vie`, `+A Vie`: the
    /// form of DipWork's reports and stage files (no nation; not one of
    /// [`Style::ALL`], whose forms read back to the same order).
    Report,
}

impl Style {
    pub const ALL: [Style; 5] = [Style::Datc, Style::Short, Style::Long, Style::Dip, Style::Mila];

    /// `datc`, `short`, `long`, `dip`, `mila`.
    pub fn from_name(name: &str) -> Option<Style> {
        Some(match name.to_ascii_lowercase().as_str() {
            "datc" | "judge" => Style::Datc,
            "short" | "dipwork" => Style::Short,
            "long" => Style::Long,
            "dip" => Style::Dip,
            "mila" => Style::Mila,
            "report" => Style::Report,
            _ => return None,
        })
    }
}

/// DIP's default names where they are not the map's abbreviation in
/// DIP's case (its help writes `ITA F(IOS) C A(Nap) - Tun` and `RUS A(StP)
/// retreat Mos`): (abbreviation, full name, DIP's name), used where a
/// province has both.
const DIP_NAMES: [(&str, &str, &str); 2] = [("ion", "Ionian Sea", "IOS"), ("stp", "St Petersburg", "StP")];

/// A province as DIP names it by default: "Land province names contain
/// lower case letters. Sea province names are fully upper case." DIP's
/// own names only where the map reads them back (standard's `aka=ios`;
/// Ancient Mediterranean's Ionian Sea has no `ios`).
fn dip_name(map: &Map, p: ProvinceId) -> String {
    let prov = map.province(p);
    if let Some((.., dip)) = DIP_NAMES
        .iter()
        .find(|(abbr, name, _)| prov.abbr.eq_ignore_ascii_case(abbr) && prov.name == *name)
    {
        if map.find_province(dip) == Some(p) {
            return dip.to_string();
        }
    }
    let a = &prov.abbr;
    if prov.terrain == Terrain::Sea {
        a.to_uppercase()
    } else {
        let mut c = a.chars();
        match c.next() {
            Some(f) => f.to_uppercase().chain(c.flat_map(char::to_lowercase)).collect(),
            None => String::new(),
        }
    }
}

struct Printer<'a> {
    /// The position, when known: DIP's style names the nation of another
    /// power's unit in a support or convoy (`ENG F(Lon) S FRA F(Bre) - ENG`).
    state: Option<&'a dip_core::State>,
    map: &'a Map,
    vocab: Option<&'a Vocabulary<'a>>,
    style: Style,
}

impl Printer<'_> {
    fn abbr(&self, p: ProvinceId) -> &str {
        match self.vocab {
            Some(v) => v.print_name(p),
            None => &self.map.province(p).abbr,
        }
    }

    fn place(&self, p: ProvinceId, coast: CoastSpec) -> String {
        let prov = self.map.province(p);
        let base = match self.style {
            Style::Datc => self.abbr(p).to_string(),
            Style::Report => capitalised_abbr(self.map, p),
            Style::Short | Style::Mila => self.abbr(p).to_uppercase(),
            Style::Long => prov.name.clone(),
            Style::Dip => match self.vocab.and_then(|v| v.rename(p)) {
                // fixnames.dat's names are "case specific": as written.
                Some(n) => n.to_string(),
                None => dip_name(self.map, p),
            },
        };
        match coast {
            CoastSpec::Coast(r) => {
                let c = self.map.region(r).coast.clone().unwrap_or_default();
                match self.style {
                    Style::Long => format!("{base} ({c})"),
                    Style::Mila => format!("{base}/{}", c.to_uppercase()),
                    _ => format!("{base}/{c}"),
                }
            }
            _ => base,
        }
    }

    fn unit(&self, u: &UnitRef) -> String {
        let p = self.place(u.province, u.coast);
        match (u.kind, self.style) {
            (Some(k), Style::Long) => format!("{} {p}", self.map.unit_type(k).name),
            (Some(k), Style::Dip) => format!("{}({p})", self.map.unit_type(k).letter),
            (Some(k), _) => format!("{} {p}", self.map.unit_type(k).letter),
            (None, _) => p,
        }
    }

    fn dest(&self, d: &Dest) -> String {
        self.place(d.province, d.coast)
    }

    fn order(&self, order: &Order) -> String {
        let style = self.style;
        if style == Style::Report {
            return report_form(self.map, order);
        }
        let arrow = match style {
            Style::Short => "-",
            Style::Long => " -> ",
            _ => " - ",
        };
        let (s, c, h, r, d, b, w, via) = match style {
            Style::Long => (
                "supports",
                "convoys",
                "holds",
                "retreats to",
                "disbands",
                "build",
                "waive",
                " via convoy",
            ),
            Style::Dip => ("S", "C", "hold", "retreat", "disband", "build", "waive", " via convoy"),
            Style::Mila => ("S", "C", "H", "R", "D", "B", "WAIVE", " VIA"),
            _ => ("S", "C", "H", "R", "D", "build", "waive", " via convoy"),
        };
        let u = |x: &UnitRef| self.unit(x);
        // Another nation's unit in a support or convoy, in DIP's style.
        let them = |x: &UnitRef| match (style, self.state.and_then(|st| st.unit(x.province))) {
            (Style::Dip, Some(unit)) if unit.power != order.power => {
                format!("{} {}", self.map.power(unit.power).abbr, self.unit(x))
            }
            _ => self.unit(x),
        };
        let body = match &order.kind {
            OrderKind::Hold(me) => format!("{} {h}", u(me)),
            OrderKind::Move(me, t, v) => format!("{}{arrow}{}{}", u(me), self.dest(t), if *v { via } else { "" }),
            OrderKind::SupportHold(me, t) => format!("{} {s} {}", u(me), them(t)),
            OrderKind::SupportMove(me, t, to) => format!("{} {s} {}{arrow}{}", u(me), them(t), self.dest(to)),
            OrderKind::Convoy(me, t, to) => format!("{} {c} {}{arrow}{}", u(me), them(t), self.dest(to)),
            OrderKind::Retreat(me, to) => format!("{} {r} {}", u(me), self.dest(to)),
            OrderKind::Disband(me) => format!("{} {d}", u(me)),
            OrderKind::Build(me) => match style {
                Style::Mila => format!("{} {b}", u(me)),
                _ => format!("{b} {}", u(me)),
            },
            OrderKind::Waive => w.into(),
        };
        let power = self.map.power(order.power);
        match style {
            Style::Short | Style::Dip => format!("{} {body}", power.abbr),
            Style::Mila => body,
            _ => format!("{}: {body}", power.name),
        }
    }
}

/// Prints an order; `parse_order` reads it back to the same order.
pub fn format_order(map: &Map, order: &Order, style: Style) -> String {
    Printer {
        map,
        vocab: None,
        style,
        state: None,
    }
    .order(order)
}

/// Prints an order with the vocabulary's names (`fixnames.dat` renames).
pub fn format_order_with(vocab: &Vocabulary, order: &Order, style: Style) -> String {
    Printer {
        map: vocab.map(),
        vocab: Some(vocab),
        style,
        state: None,
    }
    .order(order)
}

/// Prints an order of a position: as [`format_order_with`], and in DIP's
/// style a supported or convoyed unit of another nation keeps its nation
/// (`ENG F(Lon) S FRA F(Bre) - ENG`), as DIP printed multinational supports.
pub fn format_order_in(vocab: &Vocabulary, state: &dip_core::State, order: &Order, style: Style) -> String {
    Printer {
        map: vocab.map(),
        vocab: Some(vocab),
        style,
        state: Some(state),
    }
    .order(order)
}

/// `A Vie-Gal`, `F Stp/sc-Bot`, `A Boh S A Bud-Vie`: DipWork's report form.
fn report_form(map: &Map, o: &Order) -> String {
    let place = |p: ProvinceId, c: CoastSpec| match c {
        CoastSpec::Coast(r) if map.region(r).coast.is_some() => report_region(map, r),
        _ => capitalised_abbr(map, p),
    };
    let unit = |u: &UnitRef| match u.kind {
        Some(k) => format!("{} {}", map.unit_type(k).letter, place(u.province, u.coast)),
        None => place(u.province, u.coast),
    };
    let dest = |d: &Dest| place(d.province, d.coast);
    match &o.kind {
        OrderKind::Hold(u) => format!("{} H", unit(u)),
        OrderKind::Move(u, d, via) => format!("{}-{}{}", unit(u), dest(d), if *via { " via C" } else { "" }),
        OrderKind::SupportHold(u, t) => format!("{} S {}", unit(u), unit(t)),
        OrderKind::SupportMove(u, t, d) => format!("{} S {}-{}", unit(u), unit(t), dest(d)),
        OrderKind::Convoy(u, t, d) => format!("{} C {}-{}", unit(u), unit(t), dest(d)),
        OrderKind::Retreat(u, d) => format!("{}-{}", unit(u), dest(d)),
        OrderKind::Disband(u) => format!("{} disband", unit(u)),
        OrderKind::Build(u) => format!("+{}", unit(u)),
        OrderKind::Waive => "waive".into(),
    }
}

/// `PeS`, `Stp/sc`, `Lvp`: where a unit stands, as DipWork's reports and
/// files write it, in the variant's own names: a coast's own name where
/// the variant has one (DipWork's subfields), else province and coast.
pub fn report_region(map: &Map, r: dip_core::RegionId) -> String {
    let reg = map.region(r);
    if let Some(n) = &reg.name {
        return n.clone();
    }
    let base = capitalised_abbr(map, reg.province);
    match &reg.coast {
        Some(c) => format!("{base}/{c}"),
        None => base,
    }
}

/// `Vie`: a province's abbreviation with a capital, as DipWork's reports
/// write it.
pub fn capitalised_abbr(map: &Map, p: dip_core::ProvinceId) -> String {
    let a = &map.province(p).abbr;
    let mut chars = a.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
