//! Writing a model as a jDip plugin (`--to jdip`): `variants.xml` and the
//! adjacency XML with its borders.

use super::*;

pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(super) fn jdip_loc(region: &str) -> String {
    region.replace('/', "-")
}

/// A plugin from a model: `variants.xml`, `NAME_adjacency.xml` and
/// `NAME.svg` (a plain map with jDip's layers and unit points). Borders
/// with flags (`mx`, `hx`, canal) and unit types other than army, fleet
/// and wing have no jDip form and are left out (see [`crate::formats::lost_in`]).
pub fn write(m: &Model) -> Vec<(String, String)> {
    let base = plugin_base(m);
    let adj_name = format!("{base}_adjacency.xml");
    let svg_name = format!("{base}.svg");
    let v = variants_xml(m, &base, &adj_name, &svg_name);
    let a = adjacency_xml(m);
    let svg = write_svg(m);
    vec![("variants.xml".into(), v), (adj_name, a), (svg_name, svg)]
}

/// The plugin's file names' stem: the variant's name in lower case, other
/// than letters and digits as `_`.
pub(super) fn plugin_base(m: &Model) -> String {
    let base: String = m
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if base.is_empty() {
        "variant".to_string()
    } else {
        base
    }
}

/// A power's full name from its abbreviation (the abbreviation when none matches).
pub(super) fn power_name(m: &Model, abbr: &str) -> String {
    m.powers
        .iter()
        .find(|p| p.abbr.eq_ignore_ascii_case(abbr))
        .map(|p| p.name.clone())
        .unwrap_or_else(|| abbr.to_string())
}

/// `variants.xml`: the map, rules, powers, start, victory, centres and units.
pub(super) fn variants_xml(m: &Model, base: &str, adj_name: &str, svg_name: &str) -> String {
    let mut v = String::new();
    v.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    v.push_str("<!-- written by dip: dip variant convert, format jdip -->\n<VARIANTS>\n");
    v.push_str(&format!("\t<DESCRIPTION>{}</DESCRIPTION>\n", esc(&m.title)));
    v.push_str(&format!(
        "\t<MAP_DEFINITION id=\"{base}\" title=\"{}\" URI=\"{svg_name}\" thumbURI=\"{svg_name}\"/>\n",
        esc(if m.title.is_empty() { &m.name } else { &m.title })
    ));
    v.push_str(&format!(
        "\t<VARIANT name=\"{}\" version=\"1.0\" default=\"true\">\n",
        esc(&variant_name(m))
    ));
    v.push_str(&format!(
        "\t\t<DESCRIPTION>{}</DESCRIPTION>\n",
        esc(&m.description.join("\n"))
    ));
    v.push_str(&format!(
        "\t\t<MAP adjacencyURI=\"{adj_name}\">\n\t\t\t<MAP_GRAPHIC ref=\"{base}\" default=\"true\"/>\n\t\t</MAP>\n"
    ));
    write_rule_options(m, &mut v);
    write_powers(m, &mut v);
    write_starting_time(m, &mut v);
    write_victory(m, &mut v);
    write_supply_centers(m, &mut v);
    write_initial_state(m, &mut v);
    v.push_str("\t</VARIANT>\n</VARIANTS>\n");
    v
}

/// `<RULEOPTIONS>`: where builds may be made, and wings.
pub(super) fn write_rule_options(m: &Model, v: &mut String) {
    let wings = m.unit_types.iter().any(|u| u.letter.eq_ignore_ascii_case(&'W'));
    let builds = match m.build_rule {
        BuildRule::Standard => "VALUE_BUILDS_HOME_ONLY",
        BuildRule::Chaos => "VALUE_BUILDS_ANY_OWNED",
        BuildRule::Aberration => "VALUE_BUILDS_ANY_IF_HOME_OWNED",
    };
    v.push_str(&format!(
        "\t\t<RULEOPTIONS>\n\t\t\t<RULEOPTION name=\"OPTION_BUILDS\" value=\"{builds}\"/>\n"
    ));
    if wings {
        v.push_str("\t\t\t<RULEOPTION name=\"OPTION_WINGS\" value=\"VALUE_WINGS_ENABLED\"/>\n");
    }
    v.push_str("\t\t</RULEOPTIONS>\n");
}

/// One `<POWER>` per power, its abbreviation and aliases as `altnames`.
pub(super) fn write_powers(m: &Model, v: &mut String) {
    for p in &m.powers {
        let mut alt = vec![p.abbr.clone()];
        alt.extend(p.aliases.iter().cloned());
        alt.retain(|a| !a.eq_ignore_ascii_case(&p.name) && !a.contains(|c: char| c.is_whitespace() || c == ','));
        v.push_str(&format!(
            "\t\t<POWER name=\"{}\" active=\"true\" adjective=\"{}\"{}/>\n",
            esc(&p.name),
            esc(&p.adjective),
            if alt.is_empty() {
                String::new()
            } else {
                format!(" altnames=\"{}\"", esc(&alt.join(",")))
            }
        ));
    }
}

/// `<STARTINGTIME>`: the first phase.
pub(super) fn write_starting_time(m: &Model, v: &mut String) {
    let (season, phase) = match (m.season, m.kind) {
        (_, PhaseKind::Adjustment) => ("Winter", "Adjustment"),
        (Season::Spring, k) => ("Spring", if k == PhaseKind::Retreat { "Retreat" } else { "Movement" }),
        (Season::Fall, k) => ("Fall", if k == PhaseKind::Retreat { "Retreat" } else { "Movement" }),
    };
    v.push_str(&format!(
        "\t\t<STARTINGTIME turn=\"{season}, {}, {phase}\"{}/>\n",
        m.year,
        if m.year <= 0 { " allowBCYears=\"true\"" } else { "" }
    ));
}

/// `<VICTORYCONDITIONS>`: jDip needs a victory condition: dip's 0 (more
/// than half the centres) is written as that number.
pub(super) fn write_victory(m: &Model, v: &mut String) {
    let centres = m.provinces.iter().filter(|p| p.center).count();
    let victory = if m.victory > 0 {
        m.victory as usize
    } else {
        centres / 2 + 1
    };
    v.push_str("\t\t<VICTORYCONDITIONS>\n");
    v.push_str(&format!("\t\t\t<WINNING_SUPPLY_CENTERS value=\"{victory}\"/>\n"));
    v.push_str("\t\t</VICTORYCONDITIONS>\n");
}

/// One `<SUPPLYCENTER>` per centre: its home power and its owner at the start.
pub(super) fn write_supply_centers(m: &Model, v: &mut String) {
    for p in m.provinces.iter().filter(|p| p.center) {
        let owner = match &m.owners {
            Some(o) => o
                .iter()
                .find(|(_, pr)| pr.eq_ignore_ascii_case(&p.abbr))
                .map(|(pw, _)| power_name(m, pw)),
            None => p.homes.first().map(|h| power_name(m, h)),
        };
        v.push_str(&format!(
            "\t\t<SUPPLYCENTER province=\"{}\" homepower=\"{}\" owner=\"{}\"/>\n",
            esc(&p.abbr),
            esc(&p
                .homes
                .first()
                .map(|h| power_name(m, h))
                .unwrap_or_else(|| "none".into())),
            esc(&owner.unwrap_or_else(|| "none".into()))
        ));
    }
}

/// One `<INITIALSTATE>` per starting army, fleet or wing.
pub(super) fn write_initial_state(m: &Model, v: &mut String) {
    for u in &m.units {
        let word = match u.letter.to_ascii_uppercase() {
            'A' => "army",
            'F' => "fleet",
            'W' => "wing",
            _ => continue,
        };
        let (prov, coast) = match u.region.split_once('/') {
            Some((p, c)) => (p.to_string(), format!(" unitcoast=\"{}\"", esc(c))),
            None => (u.region.clone(), String::new()),
        };
        v.push_str(&format!(
            "\t\t<INITIALSTATE province=\"{}\" power=\"{}\" unit=\"{word}\"{coast}/>\n",
            esc(&prov),
            esc(&power_name(m, &u.power))
        ));
    }
}

/// The adjacency file: the border definitions, then one `<PROVINCE>` each.
pub(super) fn adjacency_xml(m: &Model) -> String {
    let mut a = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- written by dip -->\n<PROVINCES>\n");
    let borders: Vec<(String, String)> = m
        .border_rules
        .iter()
        .enumerate()
        .filter_map(|(i, r)| jdip_border(r, &format!("rule{}", i + 1)).map(|b| (r.province.to_ascii_lowercase(), b)))
        .collect();
    if !borders.is_empty() {
        a.push_str("\t<BORDER_DEFINITIONS>\n");
        for (_, b) in &borders {
            a.push_str(&format!("\t\t{b}\n"));
        }
        a.push_str("\t</BORDER_DEFINITIONS>\n");
    }
    for p in &m.provinces {
        write_province(m, p, &borders, &mut a);
    }
    a.push_str("</PROVINCES>\n");
    a
}

/// One `<PROVINCE>`: its names, borders and adjacencies (army, fleet, each coast).
pub(super) fn write_province(m: &Model, p: &MProvince, borders: &[(String, String)], a: &mut String) {
    let letter_of = |ut: usize| m.unit_types.get(ut).map(|u| u.letter.to_ascii_uppercase());
    let convoyable = if m.convoy_coasts.iter().any(|c| c.eq_ignore_ascii_case(&p.abbr)) {
        " isConvoyableCoast=\"true\""
    } else {
        ""
    };
    let ids: Vec<&str> = borders
        .iter()
        .filter(|(prov, _)| prov.eq_ignore_ascii_case(&p.abbr))
        .filter_map(|(_, b)| b.split('"').nth(1))
        .collect();
    let border_attr = if ids.is_empty() {
        String::new()
    } else {
        format!(" borders=\"{}\"", ids.join(" "))
    };
    a.push_str(&format!(
        "\t<PROVINCE shortname=\"{}\" fullname=\"{}\"{convoyable}{border_attr}>\n",
        esc(&p.abbr),
        esc(&p.name)
    ));
    for al in &p.aliases {
        a.push_str(&format!("\t\t<UNIQUENAME name=\"{}\"/>\n", esc(al)));
    }
    let refs = |from: &str, letter: char| -> Vec<String> {
        let mut r: Vec<String> = m
            .edges
            .iter()
            .filter(|e| {
                e.flags == EdgeFlags::default() && letter_of(e.ut) == Some(letter) && e.from.eq_ignore_ascii_case(from)
            })
            .map(|e| jdip_loc(&e.to))
            .collect();
        r.dedup();
        r
    };
    let mv = refs(&p.abbr, 'A');
    if !mv.is_empty() {
        a.push_str(&format!(
            "\t\t<ADJACENCY type=\"mv\" refs=\"{}\"/>\n",
            esc(&mv.join(" "))
        ));
    } else if matches!(p.terrain, Terrain::Land | Terrain::Coast) {
        // An island: jDip knows land only by an `mv` line (and refuses
        // a convoyable coast without one), so it names the province itself.
        a.push_str(&format!("\t\t<ADJACENCY type=\"mv\" refs=\"{}\"/>\n", esc(&p.abbr)));
    }
    let xc = refs(&p.abbr, 'F');
    if !xc.is_empty() || (p.coasts.is_empty() && matches!(p.terrain, Terrain::Coast | Terrain::Sea)) {
        a.push_str(&format!(
            "\t\t<ADJACENCY type=\"xc\" refs=\"{}\"/>\n",
            esc(&xc.join(" "))
        ));
    }
    for (c, _) in &p.coasts {
        if !matches!(c.as_str(), "nc" | "sc" | "ec" | "wc") {
            continue;
        }
        let r = refs(&format!("{}/{c}", p.abbr), 'F');
        a.push_str(&format!(
            "\t\t<ADJACENCY type=\"{c}\" refs=\"{}\"/>\n",
            esc(&r.join(" "))
        ));
    }
    if p.terrain == Terrain::Impassable && mv.is_empty() && xc.is_empty() && p.coasts.is_empty() {
        // jDip needs one adjacency line; an empty army line enters nowhere.
        a.push_str("\t\t<ADJACENCY type=\"mv\" refs=\"\"/>\n");
    }
    a.push_str("\t</PROVINCE>\n");
}

/// The name written for the variant: a plugin's own (`Modern (with
/// Wings)`, kept as the title) where dip's short name was made from it, so
/// that it reads back to the same short name; else the short name.
pub(super) fn variant_name(m: &Model) -> String {
    if !m.title.trim().is_empty() && safe_name(&m.title) == m.name {
        m.title.trim().to_string()
    } else {
        m.name.clone()
    }
}

/// A border rule as jDip's `BORDER` element with this id (its first
/// attribute), or `None` when jDip cannot say it (unit types other than
/// army, fleet and wing; the adjustment phase).
pub(super) fn jdip_border(r: &MBorderRule, id: &str) -> Option<String> {
    let mut units = Vec::new();
    for &c in &r.units {
        units.push(match c.to_ascii_uppercase() {
            'A' => "Army",
            'F' => "Fleet",
            'W' => "Wing",
            _ => return None,
        });
    }
    if r.phases.contains(&PhaseKind::Adjustment) {
        return None;
    }
    let mut t = format!("<BORDER id=\"{id}\" description=\"{}\"", esc(&r.to_line()));
    let mut attr = |k: &str, v: String| {
        if !v.is_empty() {
            t.push_str(&format!(" {k}=\"{}\"", esc(&v)));
        }
    };
    attr("from", r.from.join(" "));
    attr("unitTypes", units.join(", "));
    // jDip 1.6 names its order classes `dip.order.…`.
    let class = |o: &OrderClass| {
        let n = o.name();
        format!("dip.order.{}{}", n[..1].to_ascii_uppercase(), &n[1..])
    };
    attr("orderTypes", r.orders.iter().map(class).collect::<Vec<_>>().join(", "));
    let season = |s: &Season| if *s == Season::Spring { "Spring" } else { "Fall" };
    attr("season", r.seasons.iter().map(season).collect::<Vec<_>>().join(", "));
    let phase = |k: &PhaseKind| {
        if *k == PhaseKind::Retreat {
            "Retreat"
        } else {
            "Movement"
        }
    };
    attr("phase", r.phases.iter().map(phase).collect::<Vec<_>>().join(", "));
    attr(
        "year",
        match r.years {
            Years::Any => String::new(),
            Years::Between(a, b) => format!("{a}, {b}"),
            Years::Odd => "odd".into(),
            Years::Even => "even".into(),
        },
    );
    if r.strength != 0 {
        attr("baseMoveModifier", r.strength.to_string());
    }
    t.push_str("/>");
    Some(t)
}
