//! The starting position on the built map: `unit-at` and `owner` lines
//! (home centres owned when no `owner` line is given).

use super::lines::Lines;
use super::*;
use dip_core::Position;

pub(super) fn read(p: &Parser, map: &dip_core::Map, phase: Phase, lines: &Lines) -> Result<State, VariantError> {
    // Built as every position is (`State::from_position`); the line of
    // each unit, to say where one the map refuses stands.
    let mut start = Position::new(phase);
    let mut unit_lines = Vec::new();
    for s in lines.all("unit-at") {
        place_unit(p, map, &mut start, s).map_err(|m| p.err(s.line, m))?;
        unit_lines.push(s.line);
    }
    let owner_stmts = lines.all("owner");
    let mut owned_on: FastMap<ProvinceId, usize> = FastMap::default();
    for s in owner_stmts {
        let owners = start.owners.get_or_insert_with(Vec::new);
        set_owners(p, map, owners, s, &mut owned_on).map_err(|m| p.err(s.line, m))?;
    }
    State::from_position(map, &start).map_err(|e| {
        let fault = e.0.into_iter().next();
        let line = match fault.as_ref().map(|f| f.entry) {
            Some(dip_core::position::Entry::Unit(i)) => unit_lines.get(i).copied().unwrap_or(0),
            _ => 0,
        };
        p.err(line, fault.map(|f| f.message).unwrap_or_default())
    })
}

/// A `unit-at POWER TYPE PROV[/COAST]` line.
fn place_unit(p: &Parser, map: &dip_core::Map, start: &mut Position, s: &Stmt) -> Res<()> {
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
    if let Some(u) = start.units.iter().find(|u| map.province_of(u.region) == prov) {
        return Err(format!(
            "`{}` already has a unit ({} {})",
            map.province(prov).abbr,
            map.power(u.power).abbr,
            map.unit_type(u.kind).letter
        ));
    }
    start.units.push(Unit {
        power: pw,
        kind: ut,
        region: r,
    });
    Ok(())
}

/// An `owner POWER PROV...` line; `owned_on` remembers each centre's line.
fn set_owners(
    p: &Parser,
    map: &dip_core::Map,
    owners: &mut Vec<(PowerId, ProvinceId)>,
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
        owners.push((pw, q));
    }
    Ok(())
}
