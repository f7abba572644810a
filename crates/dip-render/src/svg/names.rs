//! Province names: where each goes, placed so that names and centres do
//! not overlap, and drawn.

use super::*;

impl<'a> Picture<'a> {
    /// Places centre markers at these points (per province; `None`: beside
    /// the province's name, as without them).
    pub fn set_centre_points(&mut self, points: Vec<Option<(f32, f32)>>) {
        self.centre_points = points;
    }

    /// Where a province's name is drawn (its middle, at the baseline less 4).
    pub fn name_point(&self, p: ProvinceId) -> (f32, f32) {
        self.name_points.get(p.index()).copied().unwrap_or((0.0, 0.0))
    }

    /// Names are drawn (not over a map picture, which has its own).
    pub(crate) fn names_drawn(&self, opts: &Options) -> bool {
        opts.names && self.background.is_none()
    }

    /// A supply centre whose marker is drawn beside its name (no point of
    /// its own from the map).
    pub(crate) fn centre_beside_name(&self, p: ProvinceId) -> bool {
        self.map().province(p).supply_center && self.centre_points.get(p.index()).copied().flatten().is_none()
    }

    pub(super) fn write_names(&self, s: &mut String, pal: &Palette) {
        // A light halo under each name keeps it legible over borders,
        // owners' colours and arrows.
        let _ = write!(
            s,
            r#"<g font-size="11.5" text-anchor="middle" font-weight="bold" fill="{}" stroke="{}" stroke-width="2.6" stroke-linejoin="round" paint-order="stroke" stroke-opacity="0.75">"#,
            pal.text(),
            pal.halo()
        );
        let sea_ink = pal.sea_text();
        for (i, p) in self.map().provinces().iter().enumerate() {
            let (x, y) = self.name_point(ProvinceId(i as u16));
            let name = title_case(&clip(&p.abbr, MAX_LABEL));
            let style = if p.terrain == Terrain::Sea {
                format!(r#" font-style="italic" font-weight="normal" fill="{sea_ink}""#)
            } else {
                String::new()
            };
            let _ = write!(
                s,
                r#"<text x="{}" y="{}"{style}>{}</text>"#,
                fmt(x),
                fmt(y + 4.0),
                esc(&name)
            );
        }
        s.push_str("</g>\n");
    }
}

/// Where the names go: the variant's `label=`; else, on a map with
/// shapes, below the unit's point, unless that spot lies outside the
/// province or near another unit's point: then the spot beside it (above,
/// to a side) inside the province and farthest from other units; else
/// below the point.
pub(super) fn place_names(
    variant: &Variant,
    shapes: &Shapes,
    points: &[(f32, f32)],
    region_points: &[(f32, f32)],
) -> Vec<(f32, f32)> {
    const SPOTS: [(f32, f32); 6] = [
        (0.0, 22.0),
        (0.0, -20.0),
        (30.0, 4.0),
        (-30.0, 4.0),
        (0.0, 30.0),
        (0.0, -28.0),
    ];
    let map = &variant.map;
    // The boxes of the names placed so far: a name (and the click target
    // over it) that lay over another's would take its clicks.
    let mut placed: Vec<(f32, f32, f32, f32)> = Vec::new();
    let mut out = Vec::with_capacity(points.len());
    for (i, &(x, y)) in points.iter().enumerate() {
        let p = ProvinceId(i as u16);
        let chars = label_chars(map, p);
        let centre = map.province(p).supply_center;
        let spot = if let Some(Some(l)) = variant.labels.get(i) {
            *l
        } else if shapes.generated || shapes.provinces[i].is_empty() {
            // Below the point, unless that lies on a name placed before.
            let free = |c: (f32, f32)| !placed.iter().any(|b| overlap(*b, name_box(c, chars, centre)));
            SPOTS
                .iter()
                .map(|(dx, dy)| (x + dx, y + dy))
                .find(|c| free(*c))
                .unwrap_or((x, y + 22.0))
        } else {
            let rings = &shapes.provinces[i];
            let score = |c: (f32, f32)| -> f32 {
                let clear = points
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, p)| p)
                    .chain(region_points.iter())
                    .filter(|p| **p != (x, y))
                    .map(|p| ((p.0 - c.0).powi(2) + (p.1 - c.1).powi(2)).sqrt())
                    .fold(f32::MAX, f32::min)
                    .min(24.0);
                let inside = if crate::regions::inside(rings, c) { 100.0 } else { 0.0 };
                // Below the unit, as everywhere, unless that is crowded.
                let below = if c.1 > y + 20.0 && c.1 < y + 25.0 { 10.0 } else { 0.0 };
                let apart = if placed.iter().any(|b| overlap(*b, name_box(c, chars, centre))) {
                    -200.0
                } else {
                    0.0
                };
                inside + clear + below + apart
            };
            let mut best = (x, y + 22.0);
            let mut best_score = f32::MIN;
            for (dx, dy) in SPOTS {
                let c = (x + dx, y + dy);
                let sc = score(c);
                if sc > best_score + 0.5 {
                    best = c;
                    best_score = sc;
                }
            }
            best
        };
        placed.push(name_box(spot, chars, centre));
        out.push(spot);
    }
    out
}

/// Width of a drawn name per character, and its height: the names are
/// 11-unit DejaVu Sans, whose letters are under 7 units wide.
pub(crate) const NAME_CHAR_W: f32 = 7.0;
pub(crate) const NAME_H: f32 = 15.0;

/// The characters of a province's name as drawn.
pub(crate) fn label_chars(map: &Map, p: ProvinceId) -> usize {
    map.province(p).abbr.chars().count().min(MAX_LABEL + 1)
}

/// The box (x0, y0, x1, y1) of a name drawn at `at` with `chars`
/// characters, and of its centre's marker beside it when it has one.
pub(crate) fn name_box(at: (f32, f32), chars: usize, centre_beside: bool) -> (f32, f32, f32, f32) {
    let (x, y) = at;
    let chars = chars as f32;
    let half = (chars * NAME_CHAR_W + 4.0) / 2.0;
    let mut right = x + half;
    if centre_beside {
        // The marker is at x + chars × 3.6 + 8, radius 5.
        right = right.max(x + chars * 3.6 + 14.0);
    }
    let top = y + 4.0 - NAME_H + 3.5;
    (x - half, top, right, top + NAME_H)
}

pub(super) fn overlap(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}
