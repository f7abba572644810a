//! The starting position on the built map: `unit-at` and `owner` lines
//! (home centres owned when no `owner` line is given).

use super::lines::Lines;
use super::*;

pub(super) fn read(p: &Parser, map: &dip_core::Map, phase: Phase, lines: &Lines) -> Result<State, VariantError> {
    let mut start = State::empty(map, phase);
    for s in lines.all("unit-at") {
        place_unit(p, map, &mut start, s).map_err(|m| p.err(s.line, m))?;
    }
    let owner_stmts = lines.all("owner");
    if owner_stmts.is_empty() {
        start.own_home_centers(map);
    }
    let mut owned_on: FastMap<ProvinceId, usize> = FastMap::default();
    for s in owner_stmts {
        set_owners(p, map, &mut start, s, &mut owned_on).map_err(|m| p.err(s.line, m))?;
    }
    Ok(start)
}

/// A `unit-at POWER TYPE PROV[/COAST]` line.
fn place_unit(p: &Parser, map: &dip_core::Map, start: &mut State, s: &Stmt) -> Res<()> {
    let a = args(s, &[])?;
    let [power, ut, region] = a.pos[..] else {
        return Err("expected `unit-at POWER TYPE PROV[/COAST]`, e.g. `unit-at ENG F lon`".to_string());
    };
    let pw = map
        .find_power(&unquote(power))
        .ok_or_else(|| format!("unknown power `{power}`"))?;
    let ut = p.unit_type(ut)?;
    let r = p.region(region)?;
    p.check_allows(ut, r)?;
    let prov = map.province_of(r);
    if let Some(u) = start.unit(prov) {
        return Err(format!(
            "`{}` already has a unit ({} {})",
            map.province(prov).abbr,
            map.power(u.power).abbr,
            map.unit_type(u.kind).letter
        ));
    }
    start.place(
        map,
        Unit {
            power: pw,
            kind: ut,
            region: r,
        },
    );
    Ok(())
}

/// An `owner POWER PROV...` line; `owned_on` remembers each centre's line.
fn set_owners(
    p: &Parser,
    map: &dip_core::Map,
    start: &mut State,
    s: &Stmt,
    owned_on: &mut FastMap<ProvinceId, usize>,
) -> Res<()> {
    let a = args(s, &[])?;
    let Some((&power, provs)) = a.pos.split_first().filter(|(_, r)| !r.is_empty()) else {
        return Err("expected `owner POWER PROV...`".to_string());
    };
    let pw: PowerId = map
        .find_power(&unquote(power))
        .ok_or_else(|| format!("unknown power `{power}`"))?;
    for w in provs {
        let q = p.province(w)?;
        if !map.province(q).supply_center {
            return Err(format!("`{}` is not a supply centre", map.province(q).abbr));
        }
        if let Some(prev) = owned_on.insert(q, s.line) {
            return Err(format!(
                "owner of `{}` already given on line {prev}",
                map.province(q).abbr
            ));
        }
        start.set_owner(q, Some(pw));
    }
    Ok(())
}
