//! Where things are on the map once its provinces are known: `region`
//! positions and names, `clockwise` orders of neighbours, `convoy-coast`.

use super::*;

/// A `region PROV/COAST at=X,Y name=NAME` line.
pub(super) fn set_region(p: &mut Parser, s: &Stmt) -> Res<()> {
    let a = args(s, &["at", "name"])?;
    let [r] = a.pos[..] else {
        return Err("expected `region PROV/COAST at=X,Y` or `name=NAME`".to_string());
    };
    let r = p.region(r)?;
    let at = a.opts.get("at").map(position).transpose()?;
    let name = a.opts.get("name").map(|n| unquote(n).into_owned());
    if at.is_none() && name.is_none() {
        return Err("expected `at=X,Y` or `name=NAME` (the coast's own name)".to_string());
    }
    if let Some(reg) = p.b.region_mut(r) {
        if at.is_some() {
            reg.pos = at;
        }
        if name.is_some() {
            reg.name = name;
        }
    }
    Ok(())
}

/// A `clockwise PROV NEIGHBOUR...` line: every neighbour once, in order.
/// `given` remembers the line of each province's order.
pub(super) fn set_clockwise(
    p: &mut Parser,
    s: &Stmt,
    neighbours: &[FastSet<ProvinceId>],
    given: &mut FastMap<ProvinceId, usize>,
) -> Res<()> {
    let a = args(s, &[])?;
    let Some((&first, rest)) = a.pos.split_first() else {
        return Err("expected `clockwise PROV NEIGHBOUR...`".to_string());
    };
    let pid = p.province(first)?;
    if let Some(prev) = given.insert(pid, s.line) {
        return Err(format!(
            "clockwise order of `{}` given twice (first on line {prev})",
            p.rec(pid)?.abbr
        ));
    }
    let ns = neighbours.get(pid.index()).cloned().unwrap_or_default();
    let mut order = Vec::new();
    for w in rest {
        let q = p.province(w)?;
        if order.contains(&q) {
            return Err(format!("`{}` listed twice", p.rec(q)?.abbr));
        }
        if !ns.contains(&q) {
            return Err(format!(
                "`{}` is not a neighbour of `{}`",
                p.rec(q)?.abbr,
                p.rec(pid)?.abbr
            ));
        }
        order.push(q);
    }
    let mut missing: Vec<&str> = ns
        .iter()
        .filter(|q| !order.contains(q))
        .filter_map(|q| p.provs.get(q.index()).map(|r| r.abbr.as_str()))
        .collect();
    missing.sort_unstable();
    if !missing.is_empty() {
        return Err(format!(
            "neighbours missing from the clockwise order: {}",
            missing.join(", ")
        ));
    }
    p.b.set_clockwise(pid, order);
    Ok(())
}

/// A `touches PROV NEIGHBOUR...` line: the provinces an impassable
/// province touches, which no unit crosses into (MILA's maps list them
/// as its neighbours: Switzerland).
pub(super) fn read_touches(
    p: &Parser,
    s: &Stmt,
    given: &[(ProvinceId, Vec<ProvinceId>)],
) -> Res<(ProvinceId, Vec<ProvinceId>)> {
    let a = args(s, &[])?;
    let Some((&first, rest)) = a.pos.split_first() else {
        return Err("expected `touches PROV NEIGHBOUR...`".to_string());
    };
    let pid = p.province(first)?;
    if p.rec(pid)?.terrain != Terrain::Impassable {
        return Err(format!(
            "`{}` is not impassable; a passable province's neighbours are its borders",
            p.rec(pid)?.abbr
        ));
    }
    if given.iter().any(|(q, _)| *q == pid) {
        return Err(format!("what `{}` touches is given twice", p.rec(pid)?.abbr));
    }
    let mut near = Vec::new();
    for w in rest {
        let q = p.province(w)?;
        if q == pid || near.contains(&q) {
            return Err(format!("`{}` listed twice", p.rec(q)?.abbr));
        }
        near.push(q);
    }
    if near.is_empty() {
        return Err("expected `touches PROV NEIGHBOUR...` with at least one neighbour".to_string());
    }
    Ok((pid, near))
}

/// A `convoy-coast PROV...` line: coastal provinces where fleets convoy.
pub(super) fn add_convoy_coasts(p: &mut Parser, s: &Stmt) -> Res<()> {
    let a = args(s, &[])?;
    if a.pos.is_empty() {
        return Err("expected `convoy-coast PROV...`".to_string());
    }
    for w in &a.pos {
        let pid = p.province(w)?;
        if p.rec(pid)?.terrain != Terrain::Coast {
            return Err(format!(
                "`{}` is not a coastal province; seas convoy anyway",
                p.rec(pid)?.abbr
            ));
        }
        p.b.add_convoy_coast(pid);
    }
    Ok(())
}
