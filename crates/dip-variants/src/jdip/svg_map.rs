//! A plugin's map SVG: the unit points of `jdipNS:PROVINCE_DATA` applied to
//! the model, the view box scaled for drawing, the centre points and the
//! province shapes of the `MouseLayer`.

use super::*;

/// jDip's SVGs declare the `jdipNS` prefix only as a DTD default
/// attribute, which XML readers without DTD defaults do not see: the
/// declaration is added to the root element (on its line, so lines stay).
pub(super) fn declare_jdip_ns(text: &str) -> Option<String> {
    if !text.contains("jdipNS:") {
        return None;
    }
    let body_start = text
        .find("<svg")
        .filter(|&i| text[i + 4..].starts_with(|c: char| c.is_whitespace() || c == '>'))?;
    let end = body_start + text[body_start..].find('>')?;
    if text[body_start..end].contains("xmlns:jdipNS") {
        return None;
    }
    let at = if text[..end].ends_with('/') { end - 1 } else { end };
    Some(format!(
        "{} xmlns:jdipNS=\"http://jdip.sourceforge.org/jdipNS\"{}",
        &text[..at],
        &text[at..]
    ))
}

/// Parses an SVG of a plugin (see [`declare_jdip_ns`]) and runs `f` on it.
pub(super) fn with_svg<T>(
    text: &str,
    file: &str,
    f: impl FnOnce(&roxmltree::Document) -> Result<T, VariantError>,
) -> Result<T, VariantError> {
    match declare_jdip_ns(text) {
        Some(t) => {
            let doc = xml(&t, file)?;
            f(&doc)
        }
        None => {
            let doc = xml(text, file)?;
            f(&doc)
        }
    }
}

/// The unit points of the map's SVG (`jdipNS:PROVINCE_DATA`): each
/// province's and coast's `UNIT` point, and the label points of
/// `BriefLabelLayer`. An SVG without PROVINCE_DATA is an error.
pub(super) fn apply_svg(m: &mut Model, text: &str, file: &str) -> Result<(), VariantError> {
    with_svg(text, file, |doc| apply_svg_doc(m, doc, file))
}

pub(super) fn apply_svg_doc(m: &mut Model, doc: &roxmltree::Document, file: &str) -> Result<(), VariantError> {
    let root = doc.root_element();
    let data = root
        .descendants()
        .find(|n| n.tag_name().name() == "PROVINCE_DATA")
        .ok_or_else(|| {
            err(
                file,
                line_of(doc, root),
                "no jdipNS:PROVINCE_DATA in the SVG (expected the unit points of jDip's map)",
            )
        })?;
    for layer in ["MapLayer", "UnitLayer"] {
        if !root.descendants().any(|n| n.attribute("id") == Some(layer)) {
            return Err(err(
                file,
                line_of(doc, root),
                format!("no layer `{layer}` (a <g id=\"{layer}\">) in the SVG; jDip's maps have MapLayer, SupplyCenterLayer, UnitLayer, DislodgedUnitLayer, OrderLayer and MouseLayer"),
            ));
        }
    }
    let vb = view_box(doc);
    let (vx, vy, k) = (vb.0, vb.1, drawing_scale(vb));
    let num = |n: roxmltree::Node, a: &str| {
        n.attribute(a)
            .and_then(|v| v.trim().parse::<f32>().ok())
            .filter(|v| v.is_finite())
    };
    for p in data.children().filter(|n| n.tag_name().name() == "PROVINCE") {
        let Some(name) = p.attribute("name") else { continue };
        let (prov, coast) = location(name);
        // Names the adjacency file does not know (pictures of a map shared
        // by several variants) place nothing.
        let Some(pi) = m.find_province(&prov) else { continue };
        let Some(u) = p.children().find(|n| n.tag_name().name() == "UNIT") else {
            continue;
        };
        let (Some(x), Some(y)) = (num(u, "x"), num(u, "y")) else {
            return Err(err(file, line_of(doc, u), "UNIT without numeric x and y"));
        };
        let (x, y) = ((x - vx) * k, (y - vy) * k);
        let mp = &mut m.provinces[pi];
        match coast {
            Some(c) => {
                if let Some(slot) = mp.coasts.iter_mut().find(|x| x.0 == c) {
                    slot.1 = Some((x, y));
                }
                if mp.at.is_none() {
                    mp.at = Some((x, y));
                }
            }
            None => mp.at = Some((x, y)),
        }
    }
    // Power colours (`jdipNS:POWERCOLOR power="austria" color="#DA251D"`).
    for c in root.descendants().filter(|n| n.tag_name().name() == "POWERCOLOR") {
        let (Some(pw), Some(col)) = (c.attribute("power"), c.attribute("color")) else {
            continue;
        };
        let col = col.trim();
        let hex = col.len() == 7 && col.starts_with('#') && col[1..].chars().all(|c| c.is_ascii_hexdigit());
        if let Some(p) = m.powers.iter_mut().find(|p| p.name.eq_ignore_ascii_case(pw.trim())) {
            if hex {
                p.colour = Some(col.to_ascii_lowercase());
            }
        }
    }
    if let Some(labels) = root
        .descendants()
        .find(|n| n.attribute("id") == Some("BriefLabelLayer"))
    {
        for t in labels
            .descendants()
            .filter(|n| n.has_tag_name("text") || n.tag_name().name() == "text")
        {
            let word: String = t
                .descendants()
                .filter(|n| n.is_text())
                .filter_map(|n| n.text())
                .collect::<String>()
                .trim()
                .to_ascii_lowercase();
            let (prov, _) = location(&word);
            // Rotated labels are placed by the text's own transform
            // (`translate(324.7,543), rotate(-80)` with x = y = 0).
            if let (Some(pi), Some(x), Some(y)) = (
                m.provinces.iter().position(|p| p.abbr == prov),
                num(t, "x"),
                num(t, "y"),
            ) {
                let (x, y) = apply(transform_of(t), (x, y));
                m.provinces[pi].label = Some(((x - vx) * k, (y - vy) * k));
            }
        }
    }
    Ok(())
}

/// A view box or picture box: (x, y, width, height).
pub type ViewBox = (f32, f32, f32, f32);

/// Province shapes by name: (short name, polygons of points).
pub type NamedShapes = Vec<(String, Vec<Vec<(f32, f32)>>)>;

/// The SVG's view box (x, y, width, height): the user space of its points.
pub(super) fn view_box(doc: &roxmltree::Document) -> (f32, f32, f32, f32) {
    let root = doc.root_element();
    let num = |a: &str| {
        root.attribute(a)
            .and_then(|v| v.trim().trim_end_matches("px").parse::<f32>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let vb: Vec<f32> = root
        .attribute("viewBox")
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(|w| w.parse().ok())
        .collect();
    match vb[..] {
        [x, y, w, h] if w > 0.0 && h > 0.0 && x.is_finite() && y.is_finite() && w.is_finite() && h.is_finite() => {
            (x, y, w, h)
        }
        _ => (
            0.0,
            0.0,
            num("width").unwrap_or(1000.0),
            num("height").unwrap_or(1000.0),
        ),
    }
}

/// The longest side, in pixels, of a plugin's map as dip draws it: larger
/// view boxes (Sail Ho!'s is 7300 × 7695) are scaled down, and the points
/// read with them.
pub const MAX_MAP_SIDE: f32 = 2400.0;

/// Pixels per unit of the view box.
pub(super) fn drawing_scale(vb: (f32, f32, f32, f32)) -> f32 {
    (MAX_MAP_SIDE / vb.2.max(vb.3)).min(1.0)
}

/// The map's SVG ready to be drawn under dip's picture: the layers jDip
/// fills or uses for clicks (`MouseLayer`, unit, order and label layers)
/// blanked out, the jdipNS prefix declared; with its view box, whose
/// origin is the origin of the points read ([`JdipVariant::model`]'s);
/// its width and height are in pixels (scaled by [`MAX_MAP_SIDE`]).
pub fn drawable_svg(text: &str, file: &str) -> Result<(String, ViewBox), VariantError> {
    let owned = declare_jdip_ns(text);
    let text = owned.as_deref().unwrap_or(text);
    let doc = xml(text, file)?;
    let vb = view_box(&doc);
    let k = drawing_scale(vb);
    let vb = (vb.0, vb.1, vb.2 * k, vb.3 * k);
    let mut cut: Vec<std::ops::Range<usize>> = doc
        .descendants()
        .filter(|n| {
            n.is_element()
                && (n.tag_name().namespace() == Some("http://jdip.sourceforge.org/jdipNS")
                    || matches!(
                        n.attribute("id"),
                        Some(
                            "MouseLayer"
                                | "UnitLayer"
                                | "DislodgedUnitLayer"
                                | "OrderLayer"
                                | "HighestOrderLayer"
                                | "BriefLabelLayer"
                                | "FullLabelLayer"
                        )
                    ))
        })
        .map(|n| n.range())
        .collect();
    cut.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in cut {
        if r.start < at {
            continue; // inside a cut already
        }
        out.push_str(&text[at..r.start]);
        // Keep the lines (messages about the drawing keep their numbers).
        out.extend(text[r.clone()].chars().filter(|&c| c == '\n'));
        at = r.end;
    }
    out.push_str(&text[at..]);
    Ok((out, vb))
}

/// Points by province short name.
pub type NamedPoints = Vec<(String, (f32, f32))>;

/// The supply-centre points of the map's SVG (`jdipNS:SUPPLY_CENTER` of
/// `PROVINCE_DATA`, where jDip draws each centre's marker), by province
/// short name, in the points' coordinates (those of [`JdipVariant::model`]).
/// Provinces without one are left out.
pub fn svg_centre_points(text: &str, file: &str) -> Result<NamedPoints, VariantError> {
    with_svg(text, file, |doc| {
        let vb = view_box(doc);
        let k = drawing_scale(vb);
        let num = |n: roxmltree::Node, a: &str| {
            n.attribute(a)
                .and_then(|v| v.trim().parse::<f32>().ok())
                .filter(|v| v.is_finite())
        };
        let mut out = Vec::new();
        let provinces = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "PROVINCE_DATA")
            .flat_map(|d| d.children().filter(|n| n.tag_name().name() == "PROVINCE"));
        for p in provinces {
            let Some(name) = p.attribute("name") else { continue };
            let Some(c) = p.children().find(|n| n.tag_name().name() == "SUPPLY_CENTER") else {
                continue;
            };
            if let (Some(x), Some(y)) = (num(c, "x"), num(c, "y")) {
                out.push((location(name).0, ((x - vb.0) * k, (y - vb.1) * k)));
            }
        }
        Ok(out)
    })
}

/// The province shapes of the map's SVG: each path of `MouseLayer` (by
/// province name; coasts join their province), as polygons of its points
/// (curves by points along them). Only absolute and relative M, L, H, V, C,
/// S, Q, T, Z of path data; the transforms of the path and its ancestors
/// are applied.
pub fn svg_shapes(text: &str, file: &str) -> Result<NamedShapes, VariantError> {
    with_svg(text, file, |doc| svg_shapes_doc(doc, file))
}

pub(super) fn svg_shapes_doc(doc: &roxmltree::Document, file: &str) -> Result<NamedShapes, VariantError> {
    let root = doc.root_element();
    let layer = root
        .descendants()
        .find(|n| n.attribute("id") == Some("MouseLayer"))
        .ok_or_else(|| {
            err(
                file,
                line_of(doc, root),
                "no layer `MouseLayer` (the province shapes) in the SVG",
            )
        })?;
    let vb = view_box(doc);
    let k = drawing_scale(vb);
    let mut out = Vec::new();
    for p in layer.descendants().filter(|n| n.is_element()) {
        let Some(id) = p.attribute("id") else { continue };
        let rings = match p.tag_name().name() {
            "path" => path_rings(p.attribute("d").unwrap_or("")),
            "polygon" | "polyline" => {
                let nums: Vec<f32> = p
                    .attribute("points")
                    .unwrap_or("")
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter_map(|w| w.parse().ok())
                    .collect();
                vec![nums.chunks_exact(2).map(|c| (c[0], c[1])).collect()]
            }
            "rect" => {
                let g = |a| p.attribute(a).and_then(|v: &str| v.parse::<f32>().ok()).unwrap_or(0.0);
                let (x, y, w, h) = (g("x"), g("y"), g("width"), g("height"));
                vec![vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]]
            }
            _ => continue,
        };
        let t = transform_of(p);
        let rings: Vec<Vec<(f32, f32)>> = rings
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|pt| {
                        let (x, y) = apply(t, pt);
                        ((x - vb.0) * k, (y - vb.1) * k)
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|r| r.len() >= 3)
            .collect();
        let (prov, _) = location(id);
        out.push((prov, rings));
    }
    Ok(out)
}
