//! A unit drawn: the generated icon or the variant's picture, in its
//! power's colour, dislodged ones on a red disc.

use super::*;

impl<'a> Picture<'a> {
    pub(crate) fn write_piece(&self, s: &mut String, p: &Piece, pal: &Palette) {
        let map = self.map();
        let ut = map.unit_type(p.unit.kind);
        let (x, y) = p.at;
        let fill = pal.power(p.unit.power);
        let ink = pal.ink_on(p.unit.power);
        let outline = pal.unit_outline();
        let initial = pal.initial(p.unit.power);
        let op = if p.opacity < 1.0 {
            format!(r#" opacity="{}""#, fmt(p.opacity))
        } else {
            String::new()
        };
        // The province and coast name the unit for pages (a click on the
        // icon orders it) and for tests that look for it.
        let coast = match &map.region(p.unit.region).coast {
            Some(c) => format!(r#" data-coast="{}""#, esc(c)),
            None => String::new(),
        };
        let class = if p.dislodged { "unit dislodged" } else { "unit" };
        let _ = write!(
            s,
            r#"<g class="{class}" data-province="{}"{coast} transform="translate({},{})"{op} stroke="{outline}" stroke-width="1.6" stroke-linejoin="round">"#,
            esc(&map.province(map.province_of(p.unit.region)).abbr),
            fmt(x),
            fmt(y)
        );
        if p.dislodged {
            // Dislodged: on a red disc, at full size.
            let _ = write!(
                s,
                r#"<circle r="18" fill="{red}" fill-opacity="0.3" stroke="{red}" stroke-width="2.4"/>"#,
                red = pal.fail()
            );
        }
        let types = map.unit_types().len();
        let picture = self
            .unit_images
            .get(p.unit.power.index() * types + p.unit.kind.index())
            .and_then(Option::as_ref);
        if let Some(UnitImage { uri, width, height }) = picture {
            // The variant's picture, fitted into the generated icon's
            // square, or at its own size for a variant with large icons.
            let (w, h) = if large_icons(self.variant) {
                (*width as f32, *height as f32)
            } else {
                (UNIT_PICTURE_SIDE, UNIT_PICTURE_SIDE)
            };
            let (hw, hh) = (w / 2.0, h / 2.0);
            let filter = if pal.mode == Mode::Colour {
                ""
            } else {
                r#" filter="url(#unitgrey)""#
            };
            let _ = writeln!(
                s,
                r#"<image x="-{hw}" y="-{hh}" width="{w}" height="{h}"{filter} xlink:href="{uri}"/></g>"#
            );
            return;
        }
        let shape = match ut.letter.to_ascii_uppercase() {
            'A' => r#"<rect x="-12" y="-10" width="24" height="20" rx="4""#.to_string(),
            'F' => r#"<path d="M-14,-3 L14,-3 L9,9 L-9,9 Z M-2,-3 L-2,-12 L7,-5 L-2,-5""#.to_string(),
            'W' => r#"<path d="M0,-13 L14,9 L-14,9 Z""#.to_string(),
            _ => r#"<path d="M0,-13 L13,0 L0,13 L-13,0 Z""#.to_string(),
        };
        let _ = write!(s, r#"{shape} fill="{fill}"/>"#);
        let ty = if ut.letter.eq_ignore_ascii_case(&'F') { 7.5 } else { 4.5 };
        let _ = write!(
            s,
            r#"<text y="{ty}" font-size="12" font-weight="bold" text-anchor="middle" fill="{ink}" stroke="none">{}</text></g>"#,
            esc(&initial.to_string())
        );
        s.push('\n');
    }
}
