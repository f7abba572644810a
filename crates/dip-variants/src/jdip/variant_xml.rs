//! One `VARIANT` of a plugin's `variants.xml`, one function per element:
//! `DESCRIPTION`, `RULEOPTION`, `POWER`, `STARTINGTIME`,
//! `VICTORYCONDITIONS`, `MAP` (the adjacency file), `SUPPLYCENTER`,
//! `INITIALSTATE` and `MAP_GRAPHIC` with its `MAP_DEFINITION`.

use super::*;

/// The file being read, for line numbers and errors.
struct Xml<'d, 'i> {
    doc: &'d roxmltree::Document<'i>,
    file: String,
}

impl<'d, 'i> Xml<'d, 'i> {
    fn ln(&self, n: roxmltree::Node) -> usize {
        line_of(self.doc, n)
    }

    fn attr(&self, n: roxmltree::Node<'d, 'i>, name: &str) -> Result<&'d str, VariantError> {
        attr_req(self.doc, n, name, &self.file)
    }
}

/// The powers of the variant, and every name a power goes by.
struct Powers {
    names: Vec<String>,
    of: HashMap<String, Option<String>>,
}

impl Powers {
    /// The power an attribute names (`None` for `none` or nothing).
    fn named(&self, x: &Xml, n: roxmltree::Node, attr: &str) -> Result<Option<String>, VariantError> {
        let v = x.attr(n, attr)?.trim();
        if v.is_empty() || v.eq_ignore_ascii_case("none") {
            return Ok(None);
        }
        match self.of.get(&v.to_ascii_lowercase()) {
            Some(p) => Ok(p.clone()),
            None => Err(err(
                &x.file,
                x.ln(n),
                format!(
                    "unknown power `{v}` in {attr}= (expected one of {} or none)",
                    self.names.join(", ")
                ),
            )),
        }
    }
}

pub(super) fn read_variant(plugin: &Plugin, name: &str) -> Result<JdipVariant, VariantError> {
    let vfile = plugin.file_name("variants.xml");
    let doc = xml(&plugin.variants_xml, &vfile)?;
    let x = Xml {
        doc: &doc,
        file: vfile.clone(),
    };
    let vnode = variant_node(plugin, &x, name)?;
    let vname = vnode.attribute("name").unwrap_or(name).to_string();
    let mut notes = Vec::new();
    let mut m = Model {
        name: safe_name(&vname),
        title: vname.replace('"', "'"),
        ..Model::default()
    };
    m.files.push(vfile.clone());
    description(vnode, &mut m);
    let wings = rule_options(&x, vnode, &mut m, &mut notes);
    m.unit_types = vec![UnitType::army(), UnitType::fleet()];
    if wings {
        m.unit_types.push(UnitType::wing());
    }
    m.unit_aliases = vec![Vec::new(); m.unit_types.len()];
    let powers = powers(&x, vnode, &vname, &mut m, &mut notes)?;
    starting_time(&x, vnode, &vname, &mut m)?;
    victory_conditions(&x, vnode, &mut m, &mut notes)?;
    // The adjacency file and the map.
    let mapn = vnode
        .children()
        .find(|n| n.has_tag_name("MAP"))
        .ok_or_else(|| err(&vfile, x.ln(vnode), format!("variant `{vname}` has no MAP")))?;
    let adj_uri = x.attr(mapn, "adjacencyURI")?.to_string();
    let afile = plugin.file_name(&adj_uri);
    let atext = plugin.read_text(&adj_uri)?;
    let fi = m.files.len();
    m.files.push(afile.clone());
    let mut borders = Vec::new();
    let mut convoyable_coasts = Vec::new();
    read_adjacency(
        &mut m,
        &atext,
        &afile,
        fi,
        wings,
        &mut borders,
        &mut convoyable_coasts,
        &mut notes,
    )?;
    supply_centres(&x, vnode, &powers, &afile, &mut m)?;
    initial_state(&x, vnode, &powers, &afile, wings, &mut m)?;
    let (svg, unit_style) = map_graphic(plugin, &x, mapn, &mut m)?;
    Ok(JdipVariant {
        model: m,
        svg,
        unit_style,
        borders,
        convoyable_coasts,
        notes,
    })
}

/// The `VARIANT` element named `name`.
fn variant_node<'d, 'i>(plugin: &Plugin, x: &Xml<'d, 'i>, name: &str) -> Result<roxmltree::Node<'d, 'i>, VariantError> {
    x.doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("VARIANT"))
        .find(|n| n.attribute("name").is_some_and(|v| plugin.find(name) == Some(v)))
        .ok_or_else(|| {
            err(
                &x.file,
                0,
                format!("no variant `{name}` in the plugin (it has {})", plugin.names()),
            )
        })
}

/// `DESCRIPTION`: its text without tags, line by line.
fn description(vnode: roxmltree::Node, m: &mut Model) {
    if let Some(d) = vnode.children().find(|n| n.has_tag_name("DESCRIPTION")) {
        let text = strip_tags(d.text().unwrap_or(""));
        m.description = text
            .lines()
            .map(|l| l.trim().replace('"', "'"))
            .filter(|l| !l.is_empty())
            .collect();
    }
}

/// `RULEOPTION`s: the build rule; whether the variant has wings.
fn rule_options(x: &Xml, vnode: roxmltree::Node, m: &mut Model, notes: &mut Vec<String>) -> bool {
    let mut wings = false;
    for o in vnode.descendants().filter(|n| n.has_tag_name("RULEOPTION")) {
        let (on, ov) = (o.attribute("name").unwrap_or(""), o.attribute("value").unwrap_or(""));
        match (on, ov) {
            ("OPTION_BUILDS", "VALUE_BUILDS_HOME_ONLY") => m.build_rule = BuildRule::Standard,
            ("OPTION_BUILDS", "VALUE_BUILDS_ANY_OWNED") => m.build_rule = BuildRule::Chaos,
            ("OPTION_BUILDS", "VALUE_BUILDS_ANY_IF_HOME_OWNED") => m.build_rule = BuildRule::Aberration,
            ("OPTION_WINGS", "VALUE_WINGS_ENABLED") => wings = true,
            ("OPTION_WINGS", "VALUE_WINGS_DISABLED") => wings = false,
            _ => notes.push(format!("{}:{}: rule option {on}={ov} is not read", x.file, x.ln(o))),
        }
    }
    wings
}

/// `POWER`s into `m.powers`, with their abbreviations, adjectives and
/// other names.
fn powers(
    x: &Xml,
    vnode: roxmltree::Node,
    vname: &str,
    m: &mut Model,
    notes: &mut Vec<String>,
) -> Result<Powers, VariantError> {
    let mut power_names = Vec::new();
    let mut active = Vec::new();
    let mut pnodes = Vec::new();
    for p in vnode.children().filter(|n| n.has_tag_name("POWER")) {
        power_names.push(x.attr(p, "name")?.trim().to_string());
        active.push(p.attribute("active").is_none_or(|a| !a.eq_ignore_ascii_case("false")));
        pnodes.push(p);
    }
    if power_names.is_empty() {
        return Err(err(&x.file, x.ln(vnode), format!("variant `{vname}` has no POWER")));
    }
    let abbrs = abbreviations(&power_names, &pnodes);
    let mut power_of: HashMap<String, Option<String>> = HashMap::new();
    for (i, p) in pnodes.iter().enumerate() {
        let adj = p
            .attribute("adjective")
            .unwrap_or(&power_names[i])
            .trim()
            .replace('"', "'");
        let alt: Vec<String> = p.attribute("altnames").map(split_csv).unwrap_or_default();
        let key = power_names[i].to_ascii_lowercase();
        if !active[i] {
            // jDip keeps an inactive power's units and centres; nobody
            // orders them, so they hold (a dip variant has no such flag).
            notes.push(format!(
                "{}:{}: power {} is inactive: its units stay and hold, its centres stay its own; nobody should play it",
                x.file,
                x.ln(*p),
                power_names[i]
            ));
        }
        power_of.insert(key, Some(abbrs[i].clone()));
        power_of.insert(abbrs[i].to_ascii_lowercase(), Some(abbrs[i].clone()));
        power_of.insert(adj.to_ascii_lowercase(), Some(abbrs[i].clone()));
        for a in &alt {
            power_of.insert(a.to_ascii_lowercase(), Some(abbrs[i].clone()));
        }
        m.powers.push(MPower {
            abbr: abbrs[i].clone(),
            name: power_names[i].replace('"', "'"),
            adjective: adj,
            aliases: alt,
            src: (0, x.ln(*p)),
            ..MPower::default()
        });
    }
    Ok(Powers {
        names: power_names,
        of: power_of,
    })
}

/// The powers' abbreviations: made from their names, but dip's own
/// plugins keep its abbreviations as the first altname (upper-case
/// letters and digits, at most four): taken when unique.
fn abbreviations(power_names: &[String], pnodes: &[roxmltree::Node]) -> Vec<String> {
    let mut abbrs = power_abbrs(power_names);
    for (i, p) in pnodes.iter().enumerate() {
        let first = p.attribute("altnames").and_then(|a| split_csv(a).into_iter().next());
        if let Some(a) =
            first.filter(|a| a.len() <= 4 && a.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
        {
            if !abbrs
                .iter()
                .enumerate()
                .any(|(j, b)| j != i && b.eq_ignore_ascii_case(&a))
            {
                abbrs[i] = a;
            }
        }
    }
    abbrs
}

/// `STARTINGTIME`: the first phase.
fn starting_time(x: &Xml, vnode: roxmltree::Node, vname: &str, m: &mut Model) -> Result<(), VariantError> {
    let st = vnode
        .children()
        .find(|n| n.has_tag_name("STARTINGTIME"))
        .ok_or_else(|| err(&x.file, x.ln(vnode), format!("variant `{vname}` has no STARTINGTIME")))?;
    let turn = x.attr(st, "turn")?;
    let p = parse_turn(turn).map_err(|e| {
        err(
            &x.file,
            x.ln(st),
            format!("expected a turn such as `Spring, 1901, Movement`, found `{turn}`: {e}"),
        )
    })?;
    (m.year, m.season, m.kind) = (p.year, p.season, p.kind);
    Ok(())
}

/// `VICTORYCONDITIONS`: the centres that win; the others are noted.
fn victory_conditions(
    x: &Xml,
    vnode: roxmltree::Node,
    m: &mut Model,
    notes: &mut Vec<String>,
) -> Result<(), VariantError> {
    if let Some(vc) = vnode.children().find(|n| n.has_tag_name("VICTORYCONDITIONS")) {
        for c in vc.children().filter(|n| n.is_element()) {
            let val = c.attribute("value").unwrap_or("").trim();
            match c.tag_name().name() {
                "WINNING_SUPPLY_CENTERS" => {
                    m.victory = val
                        .parse()
                        .map_err(|_| err(&x.file, x.ln(c), format!("expected a number of centres, found `{val}`")))?
                }
                other => notes.push(format!("{}:{}: {other}={val} is read, not enforced", x.file, x.ln(c))),
            }
        }
    }
    Ok(())
}

/// `SUPPLYCENTER`s: centres, home centres, and their owners when they
/// are not all the home powers.
fn supply_centres(
    x: &Xml,
    vnode: roxmltree::Node,
    powers: &Powers,
    afile: &str,
    m: &mut Model,
) -> Result<(), VariantError> {
    let mut owners = Vec::new();
    let mut owners_differ = false;
    for c in vnode.children().filter(|n| n.has_tag_name("SUPPLYCENTER")) {
        let prov = x.attr(c, "province")?;
        let (prov, _) = location(prov);
        let Some(pi) = m.find_province(&prov) else {
            return Err(err(
                &x.file,
                x.ln(c),
                format!("supply centre `{prov}` is not a province of the adjacency file {afile}"),
            ));
        };
        m.provinces[pi].center = true;
        let home = if c.attribute("homepower").is_some() {
            powers.named(x, c, "homepower")?
        } else {
            None
        };
        let owner = if c.attribute("owner").is_some() {
            powers.named(x, c, "owner")?
        } else {
            None
        };
        if let Some(h) = &home {
            if !m.provinces[pi].homes.contains(h) {
                m.provinces[pi].homes.push(h.clone());
            }
        }
        if owner != home {
            owners_differ = true;
        }
        if let Some(o) = owner {
            owners.push((o, m.provinces[pi].abbr.clone()));
        }
    }
    if owners_differ {
        m.owners = Some(owners);
    }
    Ok(())
}

/// `INITIALSTATE`s: the starting units.
fn initial_state(
    x: &Xml,
    vnode: roxmltree::Node,
    powers: &Powers,
    afile: &str,
    wings: bool,
    m: &mut Model,
) -> Result<(), VariantError> {
    for u in vnode.children().filter(|n| n.has_tag_name("INITIALSTATE")) {
        let prov = x.attr(u, "province")?;
        let (prov, mut coast) = location(prov);
        if let Some(c) = u.attribute("unitcoast") {
            let c = c.trim().to_ascii_lowercase().replace('.', "");
            if !c.is_empty() && !matches!(c.as_str(), "mv" | "xc" | "wx" | "none") {
                coast = Some(c);
            }
        }
        let Some(pi) = m.find_province(&prov) else {
            return Err(err(
                &x.file,
                x.ln(u),
                format!("unit in `{prov}`, which is not a province of the adjacency file {afile}"),
            ));
        };
        let word = x.attr(u, "unit")?;
        let ut = unit_index(word, wings).ok_or_else(|| {
            err(
                &x.file,
                x.ln(u),
                format!(
                    "unknown unit `{word}` (expected army, fleet{})",
                    if wings { " or wing" } else { "; wings need OPTION_WINGS" }
                ),
            )
        })?;
        let Some(pw) = powers.named(x, u, "power")? else {
            return Err(err(&x.file, x.ln(u), "a unit needs a power (power=\"none\" found)"));
        };
        let abbr = m.provinces[pi].abbr.clone();
        let region = match coast {
            Some(c) if m.provinces[pi].coasts.iter().any(|x| x.0 == c) => format!("{abbr}/{c}"),
            _ => abbr,
        };
        m.units.push(MUnit {
            power: pw,
            letter: m.unit_types[ut].letter,
            region,
            src: (0, x.ln(u)),
        });
    }
    Ok(())
}

/// The map's picture: the default `MAP_GRAPHIC`, else the first, and the
/// `MAP_DEFINITION` it names; its SVG is read into `m` and returned with
/// the preferred unit style.
#[allow(clippy::type_complexity)]
fn map_graphic(
    plugin: &Plugin,
    x: &Xml,
    mapn: roxmltree::Node,
    m: &mut Model,
) -> Result<(Option<(String, String)>, Option<String>), VariantError> {
    let graphics: Vec<roxmltree::Node> = mapn.children().filter(|n| n.has_tag_name("MAP_GRAPHIC")).collect();
    let g = graphics
        .iter()
        .find(|g| g.attribute("default") == Some("true"))
        .or(graphics.first());
    let Some(g) = g else {
        return Ok((None, None));
    };
    let r = g.attribute("ref").unwrap_or("");
    let def = x
        .doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("MAP_DEFINITION"))
        .find(|n| n.attribute("id") == Some(r))
        .ok_or_else(|| {
            err(
                &x.file,
                x.ln(*g),
                format!("MAP_GRAPHIC names `{r}`, which no MAP_DEFINITION defines"),
            )
        })?;
    let unit_style = g
        .attribute("preferredUnitStyle")
        .or(def.attribute("preferredUnitStyle"))
        .map(str::to_string);
    let uri = x.attr(def, "URI")?;
    let sfile = plugin.file_name(uri);
    let text = plugin.read_text(uri)?;
    apply_svg(m, &text, &sfile)?;
    m.pictures.push(("svg".into(), uri.to_string()));
    Ok((Some((sfile, text)), unit_style))
}
