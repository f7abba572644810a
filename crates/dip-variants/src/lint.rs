//! The variant linter (`dip variant check`) and the field test
//! (`dip variant show`): problems a map can have although it parses, and
//! everything known about one province.

use std::fmt::Write as _;

use dip_core::map::{BuildRule, EdgeFlags, Terrain};
use dip_core::{Map, ProvinceId, RegionId, UnitTypeId};

use crate::Variant;

/// One problem found by the linter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// A short kind: `asymmetric-border`, `unreachable-coast`, ...
    pub kind: &'static str,
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

fn ut_label(map: &Map, ut: UnitTypeId) -> String {
    let u = map.unit_type(ut);
    format!("{} ({})", u.name, u.letter)
}

/// Every problem of a parsed variant, in a stable order.
pub fn lint(v: &Variant) -> Vec<Finding> {
    let map = &v.map;
    let mut out = Vec::new();
    borders(map, &mut out);
    unreachable_coasts(map, &mut out);
    unreachable_provinces(v, &mut out);
    centres(map, &mut out);
    starting_units(v, &mut out);
    power_names(map, &mut out);
    out
}

fn add(out: &mut Vec<Finding>, kind: &'static str, message: String) {
    out.push(Finding { kind, message });
}

/// Asymmetric and dangling borders: a border a unit cannot use at one end,
/// or cannot take back.
fn borders(map: &Map, out: &mut Vec<Finding>) {
    for ut in map.unit_type_ids() {
        for r in 0..map.num_regions() {
            let from = RegionId(r as u16);
            for e in map.edges(ut, from) {
                if !map.allows(e.to, ut) || !map.allows(from, ut) {
                    add(
                        out,
                        "dangling-border",
                        format!(
                            "{} border {} - {}: a {} cannot stand at one end",
                            ut_label(map, ut),
                            map.region_name(from),
                            map.region_name(e.to),
                            map.unit_type(ut).name
                        ),
                    );
                }
                if !map.adjacent(ut, e.to, from) {
                    add(
                        out,
                        "asymmetric-border",
                        format!(
                            "{} can move {} -> {} but not back",
                            ut_label(map, ut),
                            map.region_name(from),
                            map.region_name(e.to)
                        ),
                    );
                }
            }
        }
    }
}

/// Coasts that no fleet can reach.
fn unreachable_coasts(map: &Map, out: &mut Vec<Finding>) {
    let coastal_types: Vec<UnitTypeId> = map.unit_type_ids().filter(|&u| map.unit_type(u).uses_coasts).collect();
    let incoming =
        |r: RegionId, ut: UnitTypeId| (0..map.num_regions()).any(|f| map.adjacent(ut, RegionId(f as u16), r));
    for pid in map.province_ids() {
        let p = map.province(pid);
        if p.terrain != Terrain::Coast {
            continue;
        }
        let targets: Vec<RegionId> = if map.coasts(pid).is_empty() {
            vec![map.main_region(pid)]
        } else {
            map.coasts(pid).to_vec()
        };
        for r in targets {
            let stand: Vec<UnitTypeId> = coastal_types.iter().copied().filter(|&u| map.allows(r, u)).collect();
            if !stand.is_empty() && !stand.iter().any(|&u| incoming(r, u)) {
                add(
                    out,
                    "unreachable-coast",
                    format!(
                        "no {} can reach {}",
                        stand
                            .iter()
                            .map(|&u| map.unit_type(u).name.clone())
                            .collect::<Vec<_>>()
                            .join(" or "),
                        map.region_name(r)
                    ),
                );
            }
        }
    }
}

/// Provinces not reachable from any starting unit or home centre (or, on a map
/// with neither, from its first passable province), and impassable centres.
fn unreachable_provinces(v: &Variant, out: &mut Vec<Finding>) {
    let map = &v.map;
    let np = map.num_provinces();
    let mut seen = vec![false; np];
    let mut stack: Vec<ProvinceId> = Vec::new();
    for (p, _) in v.start.units() {
        stack.push(p);
    }
    for pid in map.province_ids() {
        let pr = map.province(pid);
        if pr.supply_center && (!pr.homes.is_empty() || pr.home_of_all || v.start.owner(pid).is_some()) {
            stack.push(pid);
        }
    }
    if stack.is_empty() {
        stack.extend(
            map.province_ids()
                .filter(|&p| map.province(p).terrain != Terrain::Impassable)
                .take(1),
        );
    }
    for &p in &stack {
        seen[p.index()] = true;
    }
    while let Some(p) = stack.pop() {
        for &r in &map.province(p).regions {
            for ut in map.unit_type_ids() {
                for e in map.edges(ut, r) {
                    let q = map.province_of(e.to);
                    if !seen[q.index()] {
                        seen[q.index()] = true;
                        stack.push(q);
                    }
                }
            }
        }
    }
    for pid in map.province_ids() {
        let p = map.province(pid);
        if p.terrain != Terrain::Impassable && !seen[pid.index()] {
            add(
                out,
                "unreachable-province",
                format!(
                    "`{}` ({}) cannot be reached from any starting unit or home centre",
                    p.abbr, p.name
                ),
            );
        }
        if p.terrain == Terrain::Impassable && p.supply_center {
            add(
                out,
                "impassable-centre",
                format!("`{}` is impassable but a supply centre", p.abbr),
            );
        }
    }
}

/// Centres without a home or owner where the build rule needs them, and a
/// victory that needs more centres than the map has.
fn centres(map: &Map, out: &mut Vec<Finding>) {
    if map.build_rule != BuildRule::Chaos {
        for pw in map.power_ids() {
            let homes = map.supply_centers().iter().filter(|&&c| map.is_home(c, pw)).count();
            if homes == 0 {
                add(
                    out,
                    "no-home-centre",
                    format!(
                        "power {} has no home centre, so it can never build under the {:?} build rule",
                        map.power(pw).abbr,
                        map.build_rule
                    ),
                );
            }
        }
    }
    if map.victory_centers() > map.supply_centers().len() {
        add(
            out,
            "victory-unreachable",
            format!(
                "{} centres are needed to win but the map has {}",
                map.victory_centers(),
                map.supply_centers().len()
            ),
        );
    }
}

/// Starting units in impossible places, or with no border to move across.
fn starting_units(v: &Variant, out: &mut Vec<Finding>) {
    let map = &v.map;
    for (p, u) in v.start.units() {
        let prov = map.province(p);
        let ut = u.kind;
        if !map.allows(u.region, ut) || prov.terrain == Terrain::Impassable {
            add(
                out,
                "impossible-unit",
                format!(
                    "{} {} cannot stand in {}",
                    map.power(u.power).abbr,
                    ut_label(map, ut),
                    map.region_name(u.region)
                ),
            );
        } else if map.edges(ut, u.region).is_empty() {
            add(
                out,
                "stuck-unit",
                format!(
                    "{} {} in {} has no border to move across",
                    map.power(u.power).abbr,
                    ut_label(map, ut),
                    map.region_name(u.region)
                ),
            );
        }
    }
}

/// Duplicate names among powers.
fn power_names(map: &Map, out: &mut Vec<Finding>) {
    let mut names: Vec<(String, String)> = Vec::new();
    for p in map.powers() {
        for n in [&p.abbr, &p.name] {
            let k = n.to_lowercase();
            if let Some((_, other)) = names.iter().find(|(x, o)| *x == k && *o != p.abbr) {
                add(
                    out,
                    "duplicate-name",
                    format!("power name `{n}` is used by {} and {}", other, p.abbr),
                );
            }
            names.push((k, p.abbr.clone()));
        }
    }
}

/// DipWork's field test: everything known about one province.
pub fn show(v: &Variant, name: &str) -> Option<String> {
    let map = &v.map;
    let pid = map.find_province(name).or_else(|| {
        let (p, _) = name.split_once(['/', '('])?;
        map.find_province(p)
    })?;
    let mut s = String::new();
    show_province(v, pid, &mut s);
    for &r in &map.province(pid).regions {
        show_region(map, r, &mut s);
        show_borders(map, r, &mut s);
    }
    show_convoy(map, pid, &mut s);
    let cw: Vec<String> = map
        .clockwise(pid)
        .iter()
        .map(|q| map.province(*q).abbr.clone())
        .collect();
    let _ = writeln!(s, "clockwise  {}", cw.join(" "));
    Some(s)
}

/// The province's names, terrain, centre, unit and positions at the start.
fn show_province(v: &Variant, pid: ProvinceId, s: &mut String) {
    let map = &v.map;
    let p = map.province(pid);
    let _ = writeln!(s, "province   {} ({})", p.abbr, p.name);
    if !p.aliases.is_empty() {
        let _ = writeln!(s, "aliases    {}", p.aliases.join(", "));
    }
    let _ = writeln!(s, "terrain    {}", p.terrain.name());
    if p.supply_center {
        let mut homes: Vec<String> = p.homes.iter().map(|h| map.power(h).abbr.clone()).collect();
        if p.home_of_all {
            homes.push("all".into());
        }
        let _ = writeln!(
            s,
            "centre     yes; home of {}",
            if homes.is_empty() {
                "nobody".to_string()
            } else {
                homes.join(", ")
            }
        );
        let owner = v
            .start
            .owner(pid)
            .map(|o| map.power(o).abbr.clone())
            .unwrap_or_else(|| "nobody".into());
        let _ = writeln!(s, "owner      {owner} (at the start)");
    } else {
        let _ = writeln!(s, "centre     no");
    }
    if let Some(u) = v.start.unit(pid) {
        let _ = writeln!(
            s,
            "unit       {} {} {} (at the start)",
            map.power(u.power).abbr,
            map.unit_type(u.kind).letter,
            map.region_name(u.region)
        );
    }
    if let Some((x, y)) = p.pos {
        let _ = writeln!(s, "position   {x},{y}");
    }
    if let Some(Some((x, y))) = v.labels.get(pid.index()) {
        let _ = writeln!(s, "label      {x},{y}");
    }
}

/// One region: the units that may stand in it, and where a coast is drawn.
fn show_region(map: &Map, r: RegionId, s: &mut String) {
    let reg = map.region(r);
    let types: Vec<String> = map
        .unit_type_ids()
        .filter(|&u| map.allows(r, u))
        .map(|u| map.unit_type(u).letter.to_string())
        .collect();
    let _ = writeln!(
        s,
        "region     {}{}: {}",
        map.region_name(r),
        reg.pos
            .filter(|_| reg.coast.is_some())
            .map(|(x, y)| format!(" at {x},{y}"))
            .unwrap_or_default(),
        if types.is_empty() {
            "no unit may stand here".to_string()
        } else {
            format!("units {}", types.join(" "))
        }
    );
}

/// Each unit type's borders out of a region, with their flags and whether
/// they lead one way only.
fn show_borders(map: &Map, r: RegionId, s: &mut String) {
    for ut in map.unit_type_ids() {
        let edges = map.edges(ut, r);
        if edges.is_empty() {
            continue;
        }
        let list: Vec<String> = edges
            .iter()
            .map(|e| {
                let mut t = map.region_name(e.to);
                if e.flags.has(EdgeFlags::WEAK_MOVE) {
                    t.push_str(":mx");
                }
                if e.flags.has(EdgeFlags::NO_RETREAT) {
                    t.push_str(":hx");
                }
                if e.flags.has(EdgeFlags::CANAL) {
                    t.push_str(":canal");
                }
                if !map.adjacent(ut, e.to, r) {
                    t.push_str(" (one way)");
                }
                t
            })
            .collect();
        let _ = writeln!(s, "  {} -> {}", map.unit_type(ut).letter, list.join(" "));
    }
}

/// The province's convoy steps, when a convoy may pass it.
fn show_convoy(map: &Map, pid: ProvinceId, s: &mut String) {
    let conv: Vec<String> = map
        .convoy_neighbours(pid)
        .iter()
        .map(|q| map.province(ProvinceId(q as u16)).abbr.clone())
        .collect();
    if !conv.is_empty() {
        let _ = writeln!(
            s,
            "convoy     {}steps to {}",
            if map.is_convoy_space(pid) {
                "a convoying unit may stand here; "
            } else {
                ""
            },
            conv.join(" ")
        );
    }
}

/// Problems of a variant by names, before it is built: every border whose
/// ends do not exist or where its unit type cannot stand (dangling), every
/// name used by two provinces or two powers, every starting unit in a place
/// it cannot stand. Building stops at the first of these; the linter lists
/// them all.
pub fn lint_model(m: &crate::Model) -> Vec<Finding> {
    let mut out = Vec::new();
    province_names(m, &mut out);
    power_names_by_name(m, &mut out);
    dangling_borders(m, &mut out);
    impossible_units(m, &mut out);
    out
}

/// A name (abbreviation, name or alias) used by two provinces.
fn province_names(m: &crate::Model, out: &mut Vec<Finding>) {
    let mut names: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for p in &m.provinces {
        let mut own: Vec<String> = Vec::new();
        for n in std::iter::once(&p.abbr).chain([&p.name]).chain(p.aliases.iter()) {
            let k = n.to_lowercase();
            if own.contains(&k) {
                continue;
            }
            own.push(k.clone());
            match names.get(&k) {
                Some(other) => add(
                    out,
                    "duplicate-name",
                    format!("name `{n}` is used by provinces `{other}` and `{}`", p.abbr),
                ),
                None => {
                    names.insert(k, p.abbr.clone());
                }
            }
        }
    }
}

/// A name (abbreviation, name, adjective or alias) used by two powers.
fn power_names_by_name(m: &crate::Model, out: &mut Vec<Finding>) {
    let mut pnames: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for p in &m.powers {
        let mut own: Vec<String> = Vec::new();
        for n in [&p.abbr, &p.name, &p.adjective].into_iter().chain(p.aliases.iter()) {
            let k = n.to_lowercase();
            if own.contains(&k) {
                continue;
            }
            own.push(k.clone());
            match pnames.get(&k) {
                Some(other) => add(
                    out,
                    "duplicate-name",
                    format!("power name `{n}` is used by {other} and {}", p.abbr),
                ),
                None => {
                    pnames.insert(k, p.abbr.clone());
                }
            }
        }
    }
}

/// Where may a unit type stand? (The rule of `MapBuilder::build`, by names.)
fn stands(m: &crate::Model, ut: usize, region: &str) -> Result<(), String> {
    let u = m.unit_types.get(ut).ok_or_else(|| format!("no unit type {ut}"))?;
    let (p, c) = match region.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (region, None),
    };
    let pi = m.find_province(p).ok_or_else(|| format!("`{region}` does not exist"))?;
    let prov = &m.provinces[pi];
    if let Some(c) = c {
        if !prov.coasts.iter().any(|(x, _)| x.eq_ignore_ascii_case(c)) {
            return Err(format!("`{region}` does not exist"));
        }
    }
    if !u.stands_on.contains(prov.terrain) {
        return Err(format!(
            "a {} cannot stand in `{region}` ({})",
            u.name,
            prov.terrain.name()
        ));
    }
    match (c.is_some(), !prov.coasts.is_empty(), u.uses_coasts) {
        (true, _, false) => Err(format!("a {} does not stand on coasts such as `{region}`", u.name)),
        (false, true, true) => Err(format!("a {} in `{region}` needs one of its coasts", u.name)),
        _ => Ok(()),
    }
}

/// A border with an end that does not exist or where its unit cannot stand.
fn dangling_borders(m: &crate::Model, out: &mut Vec<Finding>) {
    for e in &m.edges {
        let letter = m.unit_types.get(e.ut).map(|u| u.letter).unwrap_or('?');
        for end in [&e.from, &e.to] {
            if let Err(why) = stands(m, e.ut, end) {
                add(
                    out,
                    "dangling-border",
                    format!("{letter} border {} - {}: {why}", e.from, e.to),
                );
                break;
            }
        }
    }
}

/// A starting unit of no unit type or power, or where it cannot stand.
fn impossible_units(m: &crate::Model, out: &mut Vec<Finding>) {
    for u in &m.units {
        let ut = m
            .unit_types
            .iter()
            .position(|t| t.letter.eq_ignore_ascii_case(&u.letter));
        match ut {
            None => add(
                out,
                "impossible-unit",
                format!("{} {} {}: no such unit type", u.power, u.letter, u.region),
            ),
            Some(ut) => {
                if let Err(why) = stands(m, ut, &u.region) {
                    add(
                        out,
                        "impossible-unit",
                        format!("{} {} {}: {why}", u.power, u.letter, u.region),
                    );
                }
            }
        }
        if !m.powers.iter().any(|p| p.abbr.eq_ignore_ascii_case(&u.power)) {
            add(
                out,
                "impossible-unit",
                format!("{} {} {}: no such power", u.power, u.letter, u.region),
            );
        }
    }
}
