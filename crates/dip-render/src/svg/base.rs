//! The base map and what is drawn on it per position: owners' patterns and
//! definitions, the provinces' shapes, owners and supply centres.

use super::*;

impl<'a> Picture<'a> {
    /// Black and white: each power's hatching, which its provinces and its
    /// panel swatch are filled with.
    pub(super) fn write_owner_patterns(&self, s: &mut String, pal: &Palette) {
        if pal.mode != Mode::BlackWhite {
            return;
        }
        for (i, _) in self.map().powers().iter().enumerate() {
            let angle = (i * 180 / self.map().powers().len().max(1)) as i32 - 45;
            let _ = writeln!(
                s,
                r#"<pattern id="own{i}" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate({angle})"><rect width="7" height="7" fill="white"/><line x1="0" y1="0" x2="0" y2="7" stroke="black" stroke-width="{}"/></pattern>"#,
                1.0 + (i % 3) as f32 * 0.6
            );
        }
    }

    pub(super) fn write_defs(&self, s: &mut String, pal: &Palette) {
        s.push_str("<defs>\n");
        self.write_owner_patterns(s, pal);
        let _ = writeln!(
            s,
            r##"<pattern id="rock" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="{}"/><line x1="0" y1="0" x2="0" y2="6" stroke="{}" stroke-width="1.2"/></pattern>"##,
            pal.hex(Rgb(0xbd, 0xb8, 0xae)),
            pal.hex(Rgb(0x8a, 0x84, 0x78))
        );
        for i in 0..self.map().num_provinces() {
            let rings = &self.shapes.provinces[i];
            if !rings.is_empty() {
                let _ = writeln!(s, r#"<path id="p{i}" d="{}" fill-rule="evenodd"/>"#, path_data(rings));
            }
        }
        s.push_str("</defs>\n");
    }

    pub(super) fn write_base(&self, s: &mut String, pal: &Palette, with_picture: bool) {
        let (cw, ch) = (self.shapes.width, self.shapes.height);
        let sea = pal.sea();
        let land = pal.land();
        let border = pal.border();
        if let Some(bg) = &self.background {
            // The map picture (PNG in the SVG; drawn separately for pixels).
            if with_picture {
                let _ = writeln!(
                    s,
                    r#"<image width="{cw}" height="{ch}" preserveAspectRatio="none" xlink:href="data:image/png;base64,{}"/>"#,
                    crate::raster::base64(&bg.png)
                );
            }
            return;
        }
        let _ = writeln!(s, r#"<rect width="{cw}" height="{ch}" fill="{sea}"/>"#);
        if !self.shapes.land.is_empty() {
            let _ = writeln!(
                s,
                r#"<path d="{}" fill="{}" stroke="{border}" stroke-width="0.6"/>"#,
                path_data(&self.shapes.land),
                pal.neutral_land()
            );
        }
        let map = self.map();
        if self.shapes.generated {
            // Borders as lines between neighbours' points.
            s.push_str(r#"<g stroke-linecap="round">"#);
            for a in map.province_ids() {
                for b in map.neighbour_provinces(a) {
                    if a < b {
                        let (x1, y1) = self.province_point(a);
                        let (x2, y2) = self.province_point(b);
                        let _ = write!(
                            s,
                            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1" stroke-dasharray="2 3"/>"#,
                            fmt(x1),
                            fmt(y1),
                            fmt(x2),
                            fmt(y2),
                            pal.hex(Rgb(0x55, 0x55, 0x55))
                        );
                    }
                }
            }
            s.push_str("</g>\n");
        }
        s.push_str(r#"<g stroke-linejoin="round">"#);
        s.push('\n');
        if !self.shapes.generated {
            // The shore: each land province's outline drawn wide first; the
            // land drawn over it hides the inner half and the inland borders,
            // leaving a line along the coast only.
            let _ = write!(s, r#"<g fill="none" stroke="{}" stroke-width="2.6">"#, pal.coast());
            for (i, p) in map.provinces().iter().enumerate() {
                if p.terrain != Terrain::Sea && !self.shapes.provinces[i].is_empty() {
                    let _ = write!(s, r##"<use xlink:href="#p{i}"/>"##);
                }
            }
            s.push_str("</g>\n");
        }
        for (i, p) in map.provinces().iter().enumerate() {
            let rings = &self.shapes.provinces[i];
            if rings.is_empty() {
                continue;
            }
            let (fill, stroke, sw) = match p.terrain {
                // The sea is the background already: only the border is drawn.
                Terrain::Sea if !self.shapes.generated => ("none".to_string(), pal.sea_border(), 1.0),
                Terrain::Sea => (sea.clone(), pal.sea_border(), 0.8),
                Terrain::Impassable => ("url(#rock)".to_string(), border.clone(), 1.0),
                _ => (land.clone(), border.clone(), 1.0),
            };
            let opacity = if self.shapes.generated {
                r#" fill-opacity="0.85""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r##"<use xlink:href="#p{i}" fill="{fill}"{opacity} stroke="{stroke}" stroke-width="{sw}"/>"##
            );
        }
        s.push_str("</g>\n");
    }

    pub(super) fn write_owners(&self, s: &mut String, state: &State, pal: &Palette, by_reference: bool) {
        // Multiplied over dip's own base, so that its borders and names show
        // through. Over a map picture of other colours (a jDip plugin's
        // coloured land) multiplying would change the power's colour (blue
        // over sand turns green): there the tint of the panel is laid over,
        // nearly opaque, with the outline drawn again.
        let over_picture = self.background.is_some() && pal.mode != Mode::BlackWhite;
        if over_picture {
            let _ = write!(
                s,
                r#"<g id="owners" fill-opacity="0.85" stroke="{}" stroke-width="0.8">"#,
                pal.border()
            );
        } else {
            s.push_str(r#"<g id="owners" style="mix-blend-mode:multiply">"#);
        }
        for (i, p) in self.map().provinces().iter().enumerate() {
            if p.terrain == Terrain::Sea || self.shapes.provinces[i].is_empty() {
                continue;
            }
            let Some(owner) = state.owner(ProvinceId(i as u16)) else {
                continue;
            };
            let fill = if over_picture {
                pal.owner_tint(owner)
            } else {
                pal.owner_fill(owner)
            };
            if by_reference {
                let _ = write!(s, r##"<use xlink:href="#p{i}" fill="{fill}"/>"##);
            } else {
                let _ = write!(
                    s,
                    r#"<path d="{}" fill="{fill}" fill-rule="evenodd"/>"#,
                    path_data(&self.shapes.provinces[i])
                );
            }
        }
        s.push_str("</g>\n");
    }

    pub(super) fn write_centres(&self, s: &mut String, state: &State, pal: &Palette, owners: bool) {
        s.push_str(r#"<g id="centres">"#);
        for &c in self.map().supply_centers() {
            let (cx, y) = match self.centre_points.get(c.index()).copied().flatten() {
                Some(at) => at,
                None => {
                    let (x, y) = self.name_point(c);
                    let chars = self.map().province(c).abbr.chars().count() as f32;
                    (x + chars * 3.6 + 8.0, y)
                }
            };
            let fill = match state.owner(c) {
                Some(o) => pal.power(o),
                None => pal.hex(Rgb(0xff, 0xff, 0xff)),
            };
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="5" fill="{fill}" stroke="{}" stroke-width="1.4"/><circle cx="{}" cy="{}" r="1.6" fill="{}"/>"#,
                fmt(cx),
                fmt(y),
                pal.text(),
                fmt(cx),
                fmt(y),
                pal.text()
            );
            // DIP's "Show centre owners": a rectangular label with the
            // owner's letters beside the marker.
            if let (true, Some(o)) = (owners, state.owner(c)) {
                let abbr = clip(&self.map().power(o).abbr, 4);
                let w = 7.0 * abbr.chars().count() as f32 + 5.0;
                let _ = write!(
                    s,
                    r#"<g class="centre-owner"><rect x="{}" y="{}" width="{}" height="12" rx="2" fill="{}" stroke="{}" stroke-width="0.8"/><text x="{}" y="{}" font-size="9.5" font-weight="bold" text-anchor="middle" fill="{}">{}</text></g>"#,
                    fmt(cx + 7.0),
                    fmt(y - 6.0),
                    fmt(w),
                    pal.power(o),
                    pal.text(),
                    fmt(cx + 7.0 + w / 2.0),
                    fmt(y + 3.5),
                    pal.ink_on(o),
                    esc(&abbr)
                );
            }
        }
        s.push_str("</g>\n");
    }
}
