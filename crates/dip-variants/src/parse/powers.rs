//! Who plays and with what: `power`, `unit`, `convoy-unit` and
//! `order-words` lines.

use super::*;

/// Every name a power goes by (abbreviation, name, adjective, aliases),
/// lower case → the line that gave it: no two powers share one.
pub(super) type PowerNames = FastMap<String, usize>;

/// A `power` line: adds the power to the map and returns its style.
pub(super) fn add_power(p: &mut Parser, s: &Stmt, power_names: &mut PowerNames) -> Res<PowerStyle> {
    let l = s.line;
    let a = args(s, &["colour", "color", "initial", "pattern", "aka"])?;
    let [abbr, pname, adj] = a.pos[..] else {
        return Err("expected `power ABBR NAME ADJECTIVE [colour=#rrggbb] [initial=X] [pattern=NAME] [aka=NAME,...]` (quote names with spaces)".into());
    };
    let abbr = short_name(abbr, "a power abbreviation")?;
    let pname = name(pname, "a power name")?;
    let adj = name(adj, "a power adjective")?;
    // The names of this power: one power may repeat its own name.
    let mut own = FastSet::default();
    for n in [&abbr, &pname, &adj] {
        claim_power_name(n, l, &mut own, power_names)?;
    }
    if p.b.powers().len() >= dip_core::ids::MAX_POWERS {
        return Err(format!("too many powers: at most {}", dip_core::ids::MAX_POWERS));
    }
    let colour = match a.opts.get("colour").or(a.opts.get("color")) {
        Some(c) => Some(colour(c)?),
        None => None,
    };
    if a.opts.contains_key("colour") && a.opts.contains_key("color") {
        return Err("give `colour=` once".into());
    }
    let initial = match a.opts.get("initial") {
        Some(i) => {
            let i = unquote(i);
            let mut cs = i.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Some(c),
                _ => return Err(format!("expected one character after `initial=`, found `{i}`")),
            }
        }
        None => None,
    };
    let mut aliases = Vec::new();
    if let Some(v) = a.opts.get("aka") {
        for w in split_outside_quotes(v, ',') {
            let n = name(w, "a power alias")?;
            if claim_power_name(&n, l, &mut own, power_names)? {
                aliases.push(n);
            }
        }
    }
    let pattern = match a.opts.get("pattern") {
        Some(v) => Some(short_name(v, "a pattern name")?),
        None => None,
    };
    p.b.add_power(&abbr, &pname, &adj);
    Ok(PowerStyle {
        colour,
        initial,
        pattern,
        aliases,
    })
}

/// Takes `n` for the power on line `l`: false when the power already has
/// it, an error when another power has it or it is `all`.
fn claim_power_name(n: &str, l: usize, own: &mut FastSet<String>, power_names: &mut PowerNames) -> Res<bool> {
    let key = n.to_lowercase();
    if key == "all" {
        return Err("`all` is reserved (home=all): choose another power name".into());
    }
    if !own.insert(key.clone()) {
        return Ok(false);
    }
    if let Some(first) = power_names.insert(key, l) {
        return Err(format!("power name `{n}` is already used on line {first}"));
    }
    Ok(true)
}

/// The `unit` lines (armies and fleets when there are none): adds the
/// unit types to the map and returns each one's aliases.
pub(super) fn read_unit_types(p: &mut Parser, stmts: &[Stmt]) -> Result<Vec<Vec<String>>, VariantError> {
    let mut unit_aliases: Vec<Vec<String>> = Vec::new();
    for s in stmts {
        let aliases = add_unit_type(p, s).map_err(|m| p.err(s.line, m))?;
        unit_aliases.push(aliases);
    }
    if p.unit_types.is_empty() {
        p.unit_types = vec![UnitType::army(), UnitType::fleet()];
        unit_aliases = vec![Vec::new(), Vec::new()];
    }
    for ut in p.unit_types.clone() {
        p.b.add_unit_type(ut);
    }
    Ok(unit_aliases)
}

fn add_unit_type(p: &mut Parser, s: &Stmt) -> Res<Vec<String>> {
    let ut = parse_unit(s, &p.unit_types)?;
    let mut aliases = Vec::new();
    if let Some(v) = args(s, &["strength", "cost", "stands", "builds", "aka"])
        .ok()
        .and_then(|a| a.opts.get("aka"))
    {
        for w in split_outside_quotes(v, ',') {
            aliases.push(short_name(w, "a unit type alias")?);
        }
    }
    if p.unit_types.len() >= dip_core::ids::MAX_UNIT_TYPES {
        return Err(format!(
            "too many unit types: at most {}",
            dip_core::ids::MAX_UNIT_TYPES
        ));
    }
    p.unit_types.push(ut);
    Ok(aliases)
}

/// The `convoy-unit` line, at most one.
pub(super) fn read_convoy_unit(p: &mut Parser, stmts: &[Stmt]) -> Result<Option<UnitTypeId>, VariantError> {
    let mut convoy_unit = None;
    for s in stmts {
        let l = s.line;
        if convoy_unit.is_some() {
            return Err(p.err(l, "`convoy-unit` given twice"));
        }
        let ut = match s.args() {
            [w] => p.unit_type(w).map_err(|m| p.err(l, m))?,
            _ => return Err(p.err(l, "expected `convoy-unit TYPE` (a letter or name of a unit type)")),
        };
        p.b.set_convoy_unit(ut);
        convoy_unit = Some(ut);
    }
    Ok(convoy_unit)
}

/// The `order-words` lines, in the order of [`crate::ORDER_KINDS`].
pub(super) fn read_order_words(p: &Parser, stmts: &[Stmt]) -> Result<Vec<(String, Vec<String>)>, VariantError> {
    let mut order_words: Vec<(String, Vec<String>)> = Vec::new();
    for s in stmts {
        let words = order_words_line(s, &order_words).map_err(|m| p.err(s.line, m))?;
        order_words.push(words);
    }
    order_words.sort_by_key(|(k, _)| crate::ORDER_KINDS.iter().position(|x| x == k));
    Ok(order_words)
}

fn order_words_line(s: &Stmt, known: &[(String, Vec<String>)]) -> Res<(String, Vec<String>)> {
    let Some((kind, words)) = s.args().split_first().filter(|(_, w)| !w.is_empty()) else {
        return Err("expected `order-words KIND WORD...`, e.g. `order-words move - move zieht`".into());
    };
    if !crate::ORDER_KINDS.contains(kind) {
        return Err(format!(
            "unknown order kind `{kind}` (expected {})",
            list(crate::ORDER_KINDS.iter().map(|k| k.to_string()))
        ));
    }
    if known.iter().any(|(k, _)| k == kind) {
        return Err(format!("order words for `{kind}` given twice"));
    }
    Ok((
        kind.to_string(),
        words.iter().map(|w| unquote(w).into_owned()).collect(),
    ))
}
