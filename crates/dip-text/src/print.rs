//! Printing orders in a chosen style.

use dip_core::{CoastSpec, Dest, Map, Order, OrderKind, UnitRef};

/// How orders are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `England: F nth - nwy` (DATC cases, Judge).
    Datc,
    /// `F NTH-NWY` (DipWork's short form).
    Short,
    /// `England: Fleet North Sea -> Norway`.
    Long,
}

fn place(map: &Map, style: Style, p: dip_core::ProvinceId, coast: CoastSpec) -> String {
    let prov = map.province(p);
    let base = match style {
        Style::Datc => prov.abbr.clone(),
        Style::Short => prov.abbr.to_ascii_uppercase(),
        Style::Long => prov.name.clone(),
    };
    match coast {
        CoastSpec::Coast(r) => {
            let c = map.region(r).coast.clone().unwrap_or_default();
            match style {
                Style::Long => format!("{base} ({c})"),
                _ => format!("{base}/{c}"),
            }
        }
        _ => base,
    }
}

fn unit(map: &Map, style: Style, u: &UnitRef) -> String {
    let p = place(map, style, u.province, u.coast);
    match u.kind {
        Some(k) => match style {
            Style::Long => format!("{} {p}", map.unit_type(k).name),
            _ => format!("{} {p}", map.unit_type(k).letter),
        },
        None => p,
    }
}

fn dest(map: &Map, style: Style, d: &Dest) -> String {
    place(map, style, d.province, d.coast)
}

/// Prints an order; `parse_order` reads it back to the same order.
pub fn format_order(map: &Map, order: &Order, style: Style) -> String {
    let arrow = match style {
        Style::Short => "-",
        Style::Datc => " - ",
        Style::Long => " -> ",
    };
    let (s, c, h, r, d) = match style {
        Style::Long => ("supports", "convoys", "holds", "retreats to", "disbands"),
        _ => ("S", "C", "H", "R", "D"),
    };
    let body = match &order.kind {
        OrderKind::Hold(u) => format!("{} {h}", unit(map, style, u)),
        OrderKind::Move(u, t, via) => format!(
            "{}{arrow}{}{}",
            unit(map, style, u),
            dest(map, style, t),
            if *via { " via convoy" } else { "" }
        ),
        OrderKind::SupportHold(u, t) => format!("{} {s} {}", unit(map, style, u), unit(map, style, t)),
        OrderKind::SupportMove(u, t, to) => {
            format!(
                "{} {s} {}{arrow}{}",
                unit(map, style, u),
                unit(map, style, t),
                dest(map, style, to)
            )
        }
        OrderKind::Convoy(u, t, to) => {
            format!(
                "{} {c} {}{arrow}{}",
                unit(map, style, u),
                unit(map, style, t),
                dest(map, style, to)
            )
        }
        OrderKind::Retreat(u, to) => format!("{} {r} {}", unit(map, style, u), dest(map, style, to)),
        OrderKind::Disband(u) => format!("{} {d}", unit(map, style, u)),
        OrderKind::Build(u) => format!("build {}", unit(map, style, u)),
        OrderKind::Waive => "waive".into(),
    };
    let power = map.power(order.power);
    match style {
        Style::Short => format!("{} {body}", power.abbr),
        _ => format!("{}: {body}", power.name),
    }
}
