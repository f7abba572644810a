//! Map edits between turns (Seismic Diplomacy): a small line-based edit
//! format (docs/variant-format.md, "Map edits") applied to a variant gives
//! a new variant, which is linted.

use dip_core::map::EdgeFlags;

use crate::lint::{lint, Finding};
use crate::model::{MEdge, Model};
use crate::{Variant, VariantError};

fn prov(r: &str) -> &str {
    r.split('/').next().unwrap_or(r)
}

fn flags(words: &str) -> Result<(String, EdgeFlags), String> {
    let mut parts = words.split(':');
    let target = parts.next().unwrap_or("").to_string();
    let mut f = EdgeFlags::default();
    for p in parts {
        f = f.with(match p {
            "mx" => EdgeFlags::WEAK_MOVE,
            "hx" => EdgeFlags::NO_RETREAT,
            "canal" => EdgeFlags::CANAL,
            other => return Err(format!("unknown border flag `{other}` (expected mx, hx or canal)")),
        });
    }
    Ok((target, f))
}

/// Applies edits to a model. Lines:
///
/// - `add-border TYPE REGION NEIGHBOUR[:FLAG...]...` (both ways)
/// - `remove-border TYPE|* REGION NEIGHBOUR...` (both ways; `*` all types;
///   a province name also removes the borders of its coasts)
/// - `remove-coasts PROV` (its coasts merge into the province)
/// - `add-coast PROV/COAST NEIGHBOUR...` (a new coast with borders for
///   every unit type that uses coasts; fleets then stand only on coasts)
pub fn edit_model(m: &mut Model, text: &str, file: &str) -> Result<(), VariantError> {
    let e = |line: usize, message: String| VariantError {
        file: file.to_string(),
        line,
        message,
    };
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let line = raw.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let ws: Vec<&str> = line.split_whitespace().collect();
        match ws.as_slice() {
            ["add-border", ut, from, tos @ ..] if !tos.is_empty() => add_border(m, ut, from, tos),
            ["remove-border", ut, from, tos @ ..] if !tos.is_empty() => remove_border(m, ut, from, tos),
            ["remove-coasts", p] => remove_coasts(m, p),
            ["add-coast", region, tos @ ..] => add_coast(m, region, tos),
            _ => {
                return Err(e(
                    l,
                    format!("cannot read `{line}` (expected add-border, remove-border, remove-coasts or add-coast)"),
                ))
            }
        }
        .map_err(|message| e(l, message))?;
    }
    Ok(())
}

fn known(p: &str, m: &Model) -> bool {
    m.find_province(prov(p)).is_some()
}

/// `add-border UT FROM TO...`: borders both ways, replacing any there were
/// (with their flags).
fn add_border(m: &mut Model, ut: &str, from: &str, tos: &[&str]) -> Result<(), String> {
    let u = m
        .find_unit_type(ut)
        .ok_or_else(|| format!("unknown unit type `{ut}`"))?;
    if !known(from, m) {
        return Err(format!("unknown province `{from}`"));
    }
    for t in tos {
        let (to, f) = flags(t)?;
        if !known(&to, m) {
            return Err(format!("unknown province `{to}`"));
        }
        for (a, b) in [(from.to_string(), to.clone()), (to.clone(), from.to_string())] {
            m.edges
                .retain(|x| !(x.ut == u && x.from.eq_ignore_ascii_case(&a) && x.to.eq_ignore_ascii_case(&b)));
            m.edges.push(MEdge {
                ut: u,
                from: a.to_ascii_lowercase(),
                to: b.to_ascii_lowercase(),
                flags: f,
                src: (0, 0),
            });
        }
    }
    Ok(())
}

/// `remove-border UT|* FROM TO...`: the borders both ways; a province
/// matches its coasts too. Each must have existed.
fn remove_border(m: &mut Model, ut: &str, from: &str, tos: &[&str]) -> Result<(), String> {
    let u = if ut == "*" {
        None
    } else {
        Some(
            m.find_unit_type(ut)
                .ok_or_else(|| format!("unknown unit type `{ut}`"))?,
        )
    };
    let matches = |name: &str, pat: &str| {
        name.eq_ignore_ascii_case(pat) || (!pat.contains('/') && prov(name).eq_ignore_ascii_case(pat))
    };
    for to in tos {
        let before = m.edges.len();
        m.edges.retain(|x| {
            let hit = u.is_none_or(|u| u == x.ut)
                && ((matches(&x.from, from) && matches(&x.to, to)) || (matches(&x.from, to) && matches(&x.to, from)));
            !hit
        });
        if m.edges.len() == before {
            return Err(format!("no border between `{from}` and `{to}` to remove"));
        }
    }
    Ok(())
}

/// `remove-coasts PROV`: the coasts become the province; their borders and
/// units move to it.
fn remove_coasts(m: &mut Model, p: &str) -> Result<(), String> {
    let pi = m.find_province(p).ok_or_else(|| format!("unknown province `{p}`"))?;
    let abbr = m.provinces[pi].abbr.clone();
    if m.provinces[pi].coasts.is_empty() {
        return Err(format!("`{abbr}` has no coasts"));
    }
    m.provinces[pi].coasts.clear();
    for x in m.edges.iter_mut() {
        if prov(&x.from).eq_ignore_ascii_case(&abbr) {
            x.from = abbr.clone();
        }
        if prov(&x.to).eq_ignore_ascii_case(&abbr) {
            x.to = abbr.clone();
        }
    }
    dedupe(m);
    for u in m.units.iter_mut() {
        if prov(&u.region).eq_ignore_ascii_case(&abbr) {
            u.region = abbr.clone();
        }
    }
    m.clockwise.clear();
    Ok(())
}

/// `add-coast PROV/COAST TO...`: a new coast with fleet borders both ways;
/// the province's first coast takes its fleets and their borders away.
fn add_coast(m: &mut Model, region: &str, tos: &[&str]) -> Result<(), String> {
    let Some((p, c)) = region.split_once('/') else {
        return Err(format!("expected PROV/COAST, found `{region}`"));
    };
    let pi = m.find_province(p).ok_or_else(|| format!("unknown province `{p}`"))?;
    let abbr = m.provinces[pi].abbr.clone();
    let coastal: Vec<usize> = (0..m.unit_types.len())
        .filter(|&u| m.unit_types[u].uses_coasts)
        .collect();
    if m.provinces[pi].coasts.is_empty() {
        // Fleets may no longer stand in the province itself.
        m.edges.retain(|x| {
            !(coastal.contains(&x.ut) && (x.from.eq_ignore_ascii_case(&abbr) || x.to.eq_ignore_ascii_case(&abbr)))
        });
        for u in m.units.iter_mut() {
            if u.region.eq_ignore_ascii_case(&abbr)
                && m.unit_types.iter().any(|t| t.letter == u.letter && t.uses_coasts)
            {
                u.region = format!("{abbr}/{c}");
            }
        }
    }
    m.provinces[pi].coasts.push((c.to_ascii_lowercase(), None));
    let reg = format!("{abbr}/{}", c.to_ascii_lowercase());
    for t in tos {
        let (to, f) = flags(t)?;
        if !known(&to, m) {
            return Err(format!("unknown province `{to}`"));
        }
        for &u in &coastal {
            for (a, b) in [
                (reg.clone(), to.to_ascii_lowercase()),
                (to.to_ascii_lowercase(), reg.clone()),
            ] {
                m.edges.push(MEdge {
                    ut: u,
                    from: a,
                    to: b,
                    flags: f,
                    src: (0, 0),
                });
            }
        }
    }
    m.clockwise.clear();
    Ok(())
}

fn dedupe(m: &mut Model) {
    let mut seen = std::collections::HashSet::new();
    m.edges.retain(|x| {
        x.from != x.to
            && prov(&x.from) != prov(&x.to)
            && seen.insert((x.ut, x.from.to_lowercase(), x.to.to_lowercase()))
    });
}

/// Applies map edits to a variant: the new variant and the linter's findings on it.
pub fn apply(v: &Variant, edits: &str, file: &str) -> Result<(Variant, Vec<Finding>), VariantError> {
    let mut m = Model::from_variant(v);
    edit_model(&mut m, edits, file)?;
    let nv = m.build(file)?;
    let findings = lint(&nv);
    Ok((nv, findings))
}

/// A game's position carried over to the edited map: units and dislodged
/// units by region name (a fleet on a removed coast goes to its province; a
/// fleet in a province that got coasts goes to its first coast), owners and
/// standoffs by province. An entry the new map cannot hold (a unit with no
/// region of its type in its province, a province the map no longer has)
/// is an error naming it: the game is not carried over with it left out.
pub fn remap_state(old: &Variant, new: &Variant, state: &dip_core::State) -> Result<dip_core::State, String> {
    let (om, nm) = (&old.map, &new.map);
    let province = |p: dip_core::ProvinceId| {
        let abbr = &om.province(p).abbr;
        nm.find_province(abbr)
            .ok_or_else(|| format!("the edited map has no province `{abbr}`"))
    };
    let unit = |u: dip_core::Unit| -> Result<dip_core::Unit, String> {
        let name = om.region_name(u.region);
        let np = province(om.province_of(u.region))?;
        let region = nm
            .regions_for(np, u.kind)
            .find(|&r| nm.region_name(r).eq_ignore_ascii_case(&name))
            .or_else(|| nm.regions_for(np, u.kind).next())
            .ok_or_else(|| {
                let (power, kind) = (&om.power(u.power).name, om.unit_type(u.kind).letter);
                format!("`{power}: {kind} {name}`: the edited map has no place for it")
            })?;
        Ok(dip_core::Unit { region, ..u })
    };
    // Built as every position is: the old position's entries carried over
    // one by one (provinces are matched by name, so no two land in one).
    let mut out = dip_core::Position::new(state.phase);
    for (_, u) in state.units() {
        out.units.push(unit(u)?);
    }
    for (_, d) in state.all_dislodged() {
        out.dislodged.push(dip_core::Dislodged {
            unit: unit(d.unit)?,
            attacker_from: province(d.attacker_from)?,
            by_convoy: d.by_convoy,
        });
    }
    for i in state.standoffs.iter() {
        out.standoffs.push(province(dip_core::ProvinceId(i as u16))?);
    }
    let mut owners = Vec::new();
    for &c in om.supply_centers() {
        if let Some(power) = state.owner(c) {
            owners.push((power, province(c)?));
        }
    }
    out.owners = Some(owners);
    dip_core::State::from_position(nm, &out).map_err(|e| e.to_string().replace('\n', "; "))
}
