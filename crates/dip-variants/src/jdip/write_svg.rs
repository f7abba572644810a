//! The map SVG of a written plugin: power colours, `jdipNS:PROVINCE_DATA`,
//! a map layer of squares and the label layers.

use super::*;

/// A plain map: a square per province around its point, jDip's layers,
/// and the unit points.
pub(super) fn write_svg(m: &Model) -> String {
    let n = m.provinces.len().max(1);
    let cols = (n as f32).sqrt().ceil() as usize;
    let pos: Vec<(f32, f32)> = m
        .provinces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.at.unwrap_or(((i % cols) as f32 * 60.0 + 40.0, (i / cols) as f32 * 60.0 + 40.0))
        })
        .collect();
    let w = pos.iter().map(|p| p.0).fold(0.0f32, f32::max) + 60.0;
    let h = pos.iter().map(|p| p.1).fold(0.0f32, f32::max) + 60.0;
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:jdipNS=\"svg.dtd\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
        num(w), num(h), num(w), num(h)
    );
    s.push_str("\t<jdipNS:DISPLAY><jdipNS:ZOOM min=\"5\" max=\"2200\" factor=\"1.2\"/><jdipNS:LABELS brief=\"true\" full=\"true\"/></jdipNS:DISPLAY>\n");
    svg_power_colours(m, &mut s);
    svg_province_data(m, &pos, &mut s);
    svg_map_layer(m, &pos, (w, h), &mut s);
    svg_label_layers(m, &pos, &mut s);
    s.push_str("\t<g id=\"MouseLayer\" visibility=\"hidden\">\n");
    for (i, p) in m.provinces.iter().enumerate() {
        s.push_str(&format!(
            "\t\t<path id=\"{}\" d=\"{}\"/>\n",
            esc(&p.abbr),
            square(pos[i])
        ));
    }
    s.push_str("\t</g>\n</svg>\n");
    s
}

/// A coordinate as written: to a tenth.
pub(super) fn num(v: f32) -> String {
    format!("{}", (v * 10.0).round() / 10.0)
}

/// A province's shape in the written map: a square around its position.
pub(super) fn square((x, y): (f32, f32)) -> String {
    format!(
        "M{} {} L{} {} L{} {} L{} {} z",
        num(x - 25.0),
        num(y - 25.0),
        num(x + 25.0),
        num(y - 25.0),
        num(x + 25.0),
        num(y + 25.0),
        num(x - 25.0),
        num(y + 25.0)
    )
}

/// `<jdipNS:ORDERDRAWING>`: each power's colour.
pub(super) fn svg_power_colours(m: &Model, s: &mut String) {
    s.push_str("\t<jdipNS:ORDERDRAWING><jdipNS:POWERCOLORS>\n");
    for p in &m.powers {
        s.push_str(&format!(
            "\t\t<jdipNS:POWERCOLOR power=\"{}\" color=\"{}\"/>\n",
            esc(&p.name.to_lowercase()),
            esc(p.colour.as_deref().unwrap_or("#888888"))
        ));
    }
    s.push_str("\t</jdipNS:POWERCOLORS></jdipNS:ORDERDRAWING>\n");
}

/// `<jdipNS:PROVINCE_DATA>`: where each province's and coast's unit,
/// dislodged unit and centre are drawn.
pub(super) fn svg_province_data(m: &Model, pos: &[(f32, f32)], s: &mut String) {
    s.push_str("\t<jdipNS:PROVINCE_DATA>\n");
    for (i, p) in m.provinces.iter().enumerate() {
        let (x, y) = pos[i];
        s.push_str(&format!(
            "\t\t<jdipNS:PROVINCE name=\"{}\"><jdipNS:UNIT x=\"{}\" y=\"{}\"/><jdipNS:DISLODGED_UNIT x=\"{}\" y=\"{}\"/>{}</jdipNS:PROVINCE>\n",
            esc(&p.abbr),
            num(x),
            num(y),
            num(x + 10.0),
            num(y - 10.0),
            if p.center { format!("<jdipNS:SUPPLY_CENTER x=\"{}\" y=\"{}\"/>", num(x), num(y + 14.0)) } else { String::new() }
        ));
        for (c, at) in &p.coasts {
            let (cx, cy) = at.unwrap_or((x, y));
            s.push_str(&format!(
                "\t\t<jdipNS:PROVINCE name=\"{}-{}\"><jdipNS:UNIT x=\"{}\" y=\"{}\"/><jdipNS:DISLODGED_UNIT x=\"{}\" y=\"{}\"/></jdipNS:PROVINCE>\n",
                esc(&p.abbr),
                esc(c),
                num(cx),
                num(cy),
                num(cx + 10.0),
                num(cy - 10.0)
            ));
        }
    }
    s.push_str("\t</jdipNS:PROVINCE_DATA>\n");
}

/// The map layer: the sea, and each province's square.
pub(super) fn svg_map_layer(m: &Model, pos: &[(f32, f32)], (w, h): (f32, f32), s: &mut String) {
    s.push_str("\t<g id=\"MapLayer\">\n");
    s.push_str(&format!(
        "\t\t<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#c5dfea\"/>\n",
        num(w),
        num(h)
    ));
    for (i, p) in m.provinces.iter().enumerate() {
        let fill = if p.terrain == Terrain::Sea {
            "#c5dfea"
        } else {
            "#eedcb5"
        };
        s.push_str(&format!(
            "\t\t<path id=\"_{}\" d=\"{}\" fill=\"{fill}\" stroke=\"#444\"/>\n",
            esc(&p.abbr),
            square(pos[i])
        ));
    }
    s.push_str("\t</g>\n");
}

/// The empty layers jDip draws into, and the province labels.
pub(super) fn svg_label_layers(m: &Model, pos: &[(f32, f32)], s: &mut String) {
    for l in [
        "SupplyCenterLayer",
        "OrderLayer",
        "UnitLayer",
        "DislodgedUnitLayer",
        "HighestOrderLayer",
    ] {
        s.push_str(&format!("\t<g id=\"{l}\"/>\n"));
    }
    s.push_str("\t<g id=\"BriefLabelLayer\" font-size=\"10\">\n");
    for (i, p) in m.provinces.iter().enumerate() {
        let (x, y) = p.label.unwrap_or((pos[i].0, pos[i].1 + 20.0));
        s.push_str(&format!(
            "\t\t<text x=\"{}\" y=\"{}\">{}</text>\n",
            num(x),
            num(y),
            esc(&p.abbr)
        ));
    }
    s.push_str("\t</g>\n\t<g id=\"FullLabelLayer\" visibility=\"hidden\"/>\n");
}
