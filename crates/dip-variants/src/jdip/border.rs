//! A jDip `BORDER` turned into a model border rule: the unit and order
//! types it forbids, its seasons, phases and years.

use super::*;

/// A jDip `BORDER` as a border rule of its province: `None` when it
/// changes nothing (no condition, no modifier: jDip lets every unit pass).
pub(super) fn border_rule(
    b: &Border,
    province: &str,
    from: Vec<String>,
    types: &[usize],
    unit_types: &[UnitType],
    file: &str,
    notes: &mut Vec<String>,
) -> Result<Option<MBorderRule>, VariantError> {
    let mut r = MBorderRule {
        province: province.to_string(),
        from,
        units: types
            .iter()
            .filter_map(|&u| unit_types.get(u))
            .map(|u| u.letter)
            .collect(),
        ..Default::default()
    };
    let unknown_orders = border_orders(b, &mut r.orders);
    if !unknown_orders.is_empty() {
        notes.push(format!(
            "{file}:{}: border `{}` of {province}: order types {} are never refused by dip",
            b.line,
            b.id,
            unknown_orders.join(", ")
        ));
        if r.orders.is_empty() {
            return Ok(None);
        }
    }
    r.seasons = border_seasons(b, file)?;
    r.phases = border_phases(b, file)?;
    r.years = border_years(b, file)?;
    let modifier = b.base_move_modifier.trim();
    if !modifier.is_empty() {
        let v: i32 = modifier
            .parse()
            .map_err(|_| bad_attribute(b, file, "baseMoveModifier", modifier, "a whole number such as -1"))?;
        r.strength = v.clamp(-100, 100) as i8;
    }
    let closes = !r.units.is_empty()
        || !r.orders.is_empty()
        || !r.seasons.is_empty()
        || !r.phases.is_empty()
        || r.years != Years::Any;
    Ok((closes || r.strength != 0).then_some(r))
}

/// An attribute of a `BORDER` that does not read, with what it takes.
pub(super) fn bad_attribute(b: &Border, file: &str, what: &str, v: &str, expected: &str) -> VariantError {
    err(
        file,
        b.line,
        format!("border `{}`: {what} `{v}` (expected {expected})", b.id),
    )
}

/// `orderTypes`: the order classes the border refuses, added to `orders`;
/// returns the classes dip does not know.
pub(super) fn border_orders(b: &Border, orders: &mut Vec<OrderClass>) -> Vec<String> {
    let mut unknown_orders = Vec::new();
    for o in &b.order_types {
        // jDip names order classes: `dip.order.Move`, `info.jdip.order.Support`.
        let class = o.rsplit('.').next().unwrap_or(o);
        match OrderClass::parse(class) {
            Some(c) if !orders.contains(&c) => orders.push(c),
            Some(_) => {}
            None => unknown_orders.push(o.clone()),
        }
    }
    unknown_orders
}

/// `season`: the seasons the border is closed in.
pub(super) fn border_seasons(b: &Border, file: &str) -> Result<Vec<Season>, VariantError> {
    let mut seasons = Vec::new();
    for w in split_list(&b.season) {
        let s = match w.to_ascii_lowercase().as_str() {
            "spring" | "summer" | "s" => Season::Spring,
            "fall" | "autumn" | "winter" | "f" | "w" => Season::Fall,
            _ => return Err(bad_attribute(b, file, "season", w, "Spring or Fall")),
        };
        if !seasons.contains(&s) {
            seasons.push(s);
        }
    }
    Ok(seasons)
}

/// `phase`: the phases the border is closed in.
pub(super) fn border_phases(b: &Border, file: &str) -> Result<Vec<PhaseKind>, VariantError> {
    let mut phases = Vec::new();
    for w in split_list(&b.phase) {
        let k = match w.to_ascii_lowercase().as_str() {
            "movement" | "m" => PhaseKind::Movement,
            "retreat" | "r" => PhaseKind::Retreat,
            _ => return Err(bad_attribute(b, file, "phase", w, "Movement or Retreat")),
        };
        if !phases.contains(&k) {
            phases.push(k);
        }
    }
    Ok(phases)
}

/// `year`: two years (the first not after the second), odd or even.
pub(super) fn border_years(b: &Border, file: &str) -> Result<Years, VariantError> {
    let bad = || {
        bad_attribute(
            b,
            file,
            "year",
            &b.year,
            "two years, the first not after the second, or odd or even",
        )
    };
    let years: Vec<&str> = b.year.split([',', ' ', '\t']).filter(|w| !w.is_empty()).collect();
    Ok(match years[..] {
        [] => Years::Any,
        [w] if w.eq_ignore_ascii_case("odd") => Years::Odd,
        [w] if w.eq_ignore_ascii_case("even") => Years::Even,
        [a, z] => match (a.parse::<i32>(), z.parse::<i32>()) {
            (Ok(a), Ok(z)) if a <= z => Years::Between(a, z),
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn years(text: &str) -> Result<Years, String> {
        let b = Border {
            id: "b1".into(),
            year: text.into(),
            line: 7,
            ..Border::default()
        };
        border_years(&b, "adjacency.xml").map_err(|e| e.to_string())
    }

    #[test]
    fn a_borders_years_are_read_and_anything_else_is_refused_at_its_line() {
        assert_eq!(years(""), Ok(Years::Any));
        assert_eq!(years("odd"), Ok(Years::Odd));
        assert_eq!(years("EVEN"), Ok(Years::Even));
        assert_eq!(years("1901, 1905"), Ok(Years::Between(1901, 1905)));
        for bad in ["1905 1901", "1901 x", "1901", "1901 1902 1903", "prime"] {
            let e = years(bad).unwrap_err();
            assert!(e.contains("adjacency.xml") && e.contains('7'), "{e}");
            assert!(
                e.contains(&format!(
                    "year `{bad}` (expected two years, the first not after the second, or odd or even)"
                )),
                "{e}"
            );
        }
    }
}
