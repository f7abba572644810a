//! A jDip adjacency file (`PROVINCES`), one function per element or
//! step: the `BORDER` definitions, each `PROVINCE` with its `UNIQUENAME`s
//! and `ADJACENCY` lines, the terrain those lines give, the edges, the
//! wings' edges, the borders a province names, the convoyable coasts.

use super::*;

/// An `ADJACENCY` line: (province index, type, refs, line).
type Line = (usize, String, String, usize);

/// What the `PROVINCE` elements give besides the model's provinces.
struct Provinces {
    adjacencies: Vec<Line>,
    /// A province's `borders=`: (province index, border ids, line).
    borders: Vec<(usize, Vec<String>, usize)>,
    /// Provinces by short name and unique names (lower case).
    index: HashMap<String, usize>,
}

/// The adjacency file into `m`: provinces, terrain, edges, border rules
/// and convoyable coasts; the borders that became rules go to
/// `borders_out`, what is not read to `notes`.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_adjacency(
    m: &mut Model,
    text: &str,
    file: &str,
    fi: usize,
    wings: bool,
    borders_out: &mut Vec<(String, Border)>,
    convoyable: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<(), VariantError> {
    let doc = xml(text, file)?;
    let root = doc.root_element();
    if !root.has_tag_name("PROVINCES") {
        return Err(err(
            file,
            line_of(&doc, root),
            format!("expected the element PROVINCES, found {}", root.tag_name().name()),
        ));
    }
    let defs = border_definitions(&doc, file)?;
    let provinces = provinces(&doc, m, file, fi, convoyable)?;
    if m.provinces.is_empty() {
        return Err(err(file, line_of(&doc, root), "no PROVINCE"));
    }
    set_terrain(m, &provinces);
    let (mut edges, touching) = edges(m, &provinces, file, fi, notes)?;
    drop_edges_no_unit_can_use(m, &provinces.index, &mut edges, file, notes);
    if wings {
        edges.extend(wing_edges(m, &touching, fi));
    }
    province_borders(m, &provinces, &defs, &mut edges, wings, file, fi, borders_out, notes)?;
    m.edges = edges;
    convoy_coasts(m, &provinces.index, convoyable);
    Ok(())
}

/// The `BORDER` elements, by id.
fn border_definitions(doc: &roxmltree::Document, file: &str) -> Result<HashMap<String, Border>, VariantError> {
    let mut defs: HashMap<String, Border> = HashMap::new();
    for b in doc.root_element().descendants().filter(|n| n.has_tag_name("BORDER")) {
        let id = attr_req(doc, b, "id", file)?.to_string();
        let list = |a: &str| -> Vec<String> {
            b.attribute(a)
                .map(|v| split_list(v).map(str::to_string).collect())
                .unwrap_or_default()
        };
        defs.insert(
            id.clone(),
            Border {
                id,
                description: b.attribute("description").unwrap_or("").to_string(),
                from: list("from"),
                unit_types: list("unitTypes"),
                order_types: list("orderTypes"),
                year: b.attribute("year").unwrap_or("").to_string(),
                season: b.attribute("season").unwrap_or("").to_string(),
                phase: b.attribute("phase").unwrap_or("").to_string(),
                base_move_modifier: b.attribute("baseMoveModifier").unwrap_or("").to_string(),
                line: line_of(doc, b),
            },
        );
    }
    Ok(defs)
}

/// The `PROVINCE` elements into `m.provinces` (land until their
/// adjacencies say otherwise), with their `UNIQUENAME`s as aliases and
/// their `ADJACENCY` lines kept for the edges.
fn provinces(
    doc: &roxmltree::Document,
    m: &mut Model,
    file: &str,
    fi: usize,
    convoyable: &mut Vec<String>,
) -> Result<Provinces, VariantError> {
    let ln = |n: roxmltree::Node| line_of(doc, n);
    let mut out = Provinces {
        adjacencies: Vec::new(),
        borders: Vec::new(),
        index: HashMap::new(),
    };
    for p in doc.root_element().children().filter(|n| n.has_tag_name("PROVINCE")) {
        let short = attr_req(doc, p, "shortname", file)?.trim().to_ascii_lowercase();
        let full = attr_req(doc, p, "fullname", file)?.trim().to_string();
        if short.is_empty() || short.contains(|c: char| c.is_whitespace() || "/#,\"".contains(c)) {
            return Err(err(
                file,
                ln(p),
                format!("province short name `{short}` is empty or has a space, `/`, `#`, `,` or `\"`"),
            ));
        }
        if out.index.contains_key(&short) {
            return Err(err(file, ln(p), format!("province `{short}` is defined twice")));
        }
        let i = m.provinces.len();
        out.index.insert(short.clone(), i);
        let mut mp = MProvince::new(&short, &full.replace('"', ""), Terrain::Land);
        mp.src = (fi, ln(p));
        unique_names(p, i, &short, &mut mp, &mut out.index);
        if p.attribute("isConvoyableCoast") == Some("true") {
            convoyable.push(short.clone());
        }
        if let Some(b) = p.attribute("borders") {
            out.borders
                .push((i, split_list(b).map(str::to_string).collect(), ln(p)));
        }
        adjacency_lines(doc, p, i, &mut mp, file, &mut out.adjacencies)?;
        m.provinces.push(mp);
    }
    Ok(out)
}

/// A province's `UNIQUENAME`s: found by them, and kept as its aliases.
fn unique_names(p: roxmltree::Node, i: usize, short: &str, mp: &mut MProvince, index: &mut HashMap<String, usize>) {
    for u in p.children().filter(|n| n.has_tag_name("UNIQUENAME")) {
        if let Some(n) = u.attribute("name") {
            let n = n.trim().replace('"', "");
            index.entry(n.to_ascii_lowercase()).or_insert(i);
            if !n.is_empty() && !n.eq_ignore_ascii_case(short) && !mp.aliases.iter().any(|a| a.eq_ignore_ascii_case(&n))
            {
                mp.aliases.push(n);
            }
        }
    }
}

/// A province's `ADJACENCY` lines; a coast type gives it that coast.
fn adjacency_lines(
    doc: &roxmltree::Document,
    p: roxmltree::Node,
    i: usize,
    mp: &mut MProvince,
    file: &str,
    out: &mut Vec<Line>,
) -> Result<(), VariantError> {
    for a in p.children().filter(|n| n.has_tag_name("ADJACENCY")) {
        let t = a.attribute("type").unwrap_or("mv").trim().to_ascii_lowercase();
        if !matches!(t.as_str(), "mv" | "xc" | "nc" | "sc" | "ec" | "wc") {
            return Err(err(
                file,
                line_of(doc, a),
                format!("adjacency type `{t}`: expected mv, xc, nc, sc, ec or wc"),
            ));
        }
        let refs = attr_req(doc, a, "refs", file)?.to_string();
        if matches!(t.as_str(), "nc" | "sc" | "ec" | "wc") && !mp.coasts.iter().any(|c| c.0 == t) {
            mp.coasts.push((t.clone(), None));
        }
        out.push((i, t, refs, line_of(doc, a)));
    }
    Ok(())
}

/// Terrain: army borders make land; fleet borders make sea; both, coast.
/// jDip counts any `mv` line as land, even one naming only the province
/// itself (or nothing): with a fleet line that is an island, a coast
/// (`<ADJACENCY type="mv" refs="ire"/>` in Loeb9 and Modern); alone,
/// as jDip's Switzerland has it, no unit can enter: impassable.
/// (A fleet adjacency without refs still makes a coast: a shore that
/// some border closes to fleets.)
fn set_terrain(m: &mut Model, provinces: &Provinces) {
    let mut land = vec![false; m.provinces.len()];
    let mut army_line = vec![false; m.provinces.len()];
    let mut water = vec![false; m.provinces.len()];
    for (i, t, refs, _) in &provinces.adjacencies {
        if t != "mv" {
            water[*i] = true;
        } else {
            army_line[*i] = true;
            if split_list(refs).any(|r| provinces.index.get(&location(r).0) != Some(i)) {
                land[*i] = true;
            }
        }
    }
    for (i, p) in m.provinces.iter_mut().enumerate() {
        p.terrain = match (army_line[i], water[i]) {
            (true, true) => Terrain::Coast,
            (false, true) => Terrain::Sea,
            (true, false) if land[i] => Terrain::Land,
            _ => Terrain::Impassable,
        };
    }
}

/// The edges the `ADJACENCY` lines give (armies' for `mv`, fleets' for
/// the others), and which provinces each touches (for wings).
fn edges(
    m: &Model,
    provinces: &Provinces,
    file: &str,
    fi: usize,
    notes: &mut Vec<String>,
) -> Result<(Vec<MEdge>, Vec<Vec<usize>>), VariantError> {
    let mut edges: Vec<MEdge> = Vec::new();
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); m.provinces.len()];
    for (i, t, refs, line) in &provinces.adjacencies {
        let from_abbr = m.provinces[*i].abbr.clone();
        for r in split_list(refs) {
            let (rp, rc) = location(r);
            let Some(&j) = provinces.index.get(&rp) else {
                return Err(err(
                    file,
                    *line,
                    format!("`{r}` in the borders of {from_abbr} is not a province of this file"),
                ));
            };
            if j == *i {
                // A province bordering itself (one coast to another) moves nothing.
                continue;
            }
            if !touching[*i].contains(&j) {
                touching[*i].push(j);
            }
            let to_abbr = m.provinces[j].abbr.clone();
            if t == "mv" {
                edges.push(MEdge {
                    ut: 0,
                    from: from_abbr.clone(),
                    to: to_abbr,
                    flags: EdgeFlags::default(),
                    src: (fi, *line),
                });
            } else {
                let from = if t == "xc" {
                    from_abbr.clone()
                } else {
                    format!("{from_abbr}/{t}")
                };
                let to = match rc {
                    Some(c) => {
                        if !m.provinces[j].coasts.iter().any(|x| x.0 == c) {
                            notes.push(format!(
                                "{file}:{line}: `{r}`: {to_abbr} has no coast {c} (no ADJACENCY type=\"{c}\"): border left out"
                            ));
                            continue;
                        }
                        format!("{to_abbr}/{c}")
                    }
                    None if !m.provinces[j].coasts.is_empty() => {
                        notes.push(format!(
                            "{file}:{line}: fleet border {from}-{to_abbr} names no coast of {to_abbr}: left out"
                        ));
                        continue;
                    }
                    None => to_abbr,
                };
                edges.push(MEdge {
                    ut: 1,
                    from,
                    to,
                    flags: EdgeFlags::default(),
                    src: (fi, *line),
                });
            }
        }
    }
    Ok((edges, touching))
}

/// A fleet border to a province without fleet borders of its own (or an
/// army border to one without army borders) is a slip of the file:
/// jDip's units could not stand there either.
fn drop_edges_no_unit_can_use(
    m: &Model,
    index: &HashMap<String, usize>,
    edges: &mut Vec<MEdge>,
    file: &str,
    notes: &mut Vec<String>,
) {
    let terrain_of = |m: &Model, r: &str| {
        let p = r.split('/').next().unwrap_or("");
        index.get(p).map(|&i| m.provinces[i].terrain)
    };
    edges.retain(|e| {
        let ok = |t: Option<Terrain>| match e.ut {
            0 => matches!(t, Some(Terrain::Land | Terrain::Coast)),
            _ => matches!(t, Some(Terrain::Sea | Terrain::Coast)),
        };
        let keep = ok(terrain_of(m, &e.from)) && ok(terrain_of(m, &e.to));
        if !keep {
            notes.push(format!(
                "{file}:{}: {} border {}-{}: one end cannot hold that unit: left out",
                e.src.1,
                if e.ut == 0 { "army" } else { "fleet" },
                e.from,
                e.to
            ));
        }
        keep
    });
}

/// Wings move to every province a province touches.
fn wing_edges(m: &Model, touching: &[Vec<usize>], fi: usize) -> Vec<MEdge> {
    let mut edges = Vec::new();
    for (i, ns) in touching.iter().enumerate() {
        for &j in ns {
            edges.push(MEdge {
                ut: 2,
                from: m.provinces[i].abbr.clone(),
                to: m.provinces[j].abbr.clone(),
                flags: EdgeFlags::default(),
                src: (fi, m.provinces[i].src.1),
            });
        }
    }
    edges
}

/// Borders: a border that only names unit types (and maybe `from`)
/// holds always: its edges are left out (into the province, and out of
/// it when no `from` is given). The others become border rules of the
/// map, checked by the engine with the phase (docs/jdip-plugin.md).
#[allow(clippy::too_many_arguments)]
fn province_borders(
    m: &mut Model,
    provinces: &Provinces,
    defs: &HashMap<String, Border>,
    edges: &mut Vec<MEdge>,
    wings: bool,
    file: &str,
    fi: usize,
    borders_out: &mut Vec<(String, Border)>,
    notes: &mut Vec<String>,
) -> Result<(), VariantError> {
    for (pi, ids, line) in &provinces.borders {
        let abbr = m.provinces[*pi].abbr.clone();
        for id in ids {
            let Some(b) = defs.get(id) else {
                return Err(err(
                    file,
                    *line,
                    format!("border `{id}` of {abbr} is not in BORDER_DEFINITIONS"),
                ));
            };
            let types = border_unit_types(b, wings, file)?;
            if !b.unit_types.is_empty() && types.is_empty() {
                notes.push(format!(
                    "{file}:{}: border `{id}` of {abbr} is about wings only, and this variant has none: left out",
                    b.line
                ));
                continue;
            }
            let from = border_from(m, &provinces.index, b, file)?;
            if b.unconditional() && !types.is_empty() {
                close_edges(edges, &abbr, &from, &types);
                continue;
            }
            let rule = border_rule(b, &abbr, from, &types, &m.unit_types, file, notes)?;
            match rule {
                Some(mut r) => {
                    r.src = (fi, b.line);
                    m.border_rules.push(r);
                    borders_out.push((abbr.clone(), b.clone()));
                }
                None => notes.push(format!(
                    "{file}:{}: border `{id}` of {abbr} ({}) gives no condition and no baseMoveModifier: it closes nothing (as in jDip)",
                    b.line, b.description
                )),
            }
        }
    }
    Ok(())
}

/// A border's `unitTypes` as unit type indices (wings dropped when the
/// variant has none).
fn border_unit_types(b: &Border, wings: bool, file: &str) -> Result<Vec<usize>, VariantError> {
    let mut types = Vec::new();
    for t in &b.unit_types {
        match unit_index(t, true) {
            Some(2) if !wings => {}
            Some(u) => types.push(u),
            None => {
                return Err(err(
                    file,
                    b.line,
                    format!(
                        "border `{}`: unknown unit type `{t}` (expected Army, Fleet or Wing)",
                        b.id
                    ),
                ))
            }
        }
    }
    Ok(types)
}

/// A border's `from` provinces, by their abbreviations.
fn border_from(m: &Model, index: &HashMap<String, usize>, b: &Border, file: &str) -> Result<Vec<String>, VariantError> {
    let mut from = Vec::new();
    for f in &b.from {
        let fp = location(f).0;
        match index.get(&fp) {
            Some(&j) => from.push(m.provinces[j].abbr.clone()),
            None => {
                return Err(err(
                    file,
                    b.line,
                    format!("border `{}`: `from` names `{f}`, not a province of this file", b.id),
                ))
            }
        }
    }
    Ok(from)
}

/// Leaves out the edges of `types` into `abbr` (from `from`, or any) and
/// out of it (when `from` is empty).
fn close_edges(edges: &mut Vec<MEdge>, abbr: &str, from: &[String], types: &[usize]) {
    let prov_of = |r: &str| r.split('/').next().unwrap_or("").to_string();
    edges.retain(|e| {
        if !types.contains(&e.ut) {
            return true;
        }
        let (fp, tp) = (prov_of(&e.from), prov_of(&e.to));
        let into = tp == abbr && (from.is_empty() || from.contains(&fp));
        let out = fp == abbr && (from.is_empty() || from.contains(&fp));
        !(into || out)
    });
}

/// Convoyable coasts: fleets there convoy (a convoyable province that is
/// no coast needs nothing: seas convoy anyway, land cannot hold fleets).
fn convoy_coasts(m: &mut Model, index: &HashMap<String, usize>, convoyable: &[String]) {
    for c in convoyable {
        if let Some(&i) = index.get(c) {
            if m.provinces[i].terrain == Terrain::Coast {
                m.convoy_coasts.push(m.provinces[i].abbr.clone());
            }
        }
    }
}
