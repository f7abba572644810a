//! The map a page lets players click: click targets for every province
//! and its name, put *under* the units, so that a unit's icon (which
//! carries its province and coast) is clicked as itself even where it
//! overlaps a neighbour; and the geometry a script needs to draw orders
//! over it (where each region's unit stands, each power's colours), read
//! by the web page's `draw.js`.

use crate::colour::Palette;
use crate::svg::{esc, fmt, label_chars, name_box, Options, Picture, TITLE_H};
use dip_core::{PhaseOutcome, State};
use serde_json::{json, Map as JsonMap, Value};
use std::fmt::Write;

impl Picture<'_> {
    /// [`Picture::svg`] for a page: the click layer
    /// ([`Picture::svg_click_layer`]) between the position and the units.
    pub fn svg_clickable(&self, state: &State, outcome: Option<&PhaseOutcome>, opts: &Options) -> String {
        self.svg_scene(state, outcome.map(|o| (state, o)), opts, true)
    }

    /// Click targets: one transparent element per province with
    /// `data-province="par"` (its outline where the map has shapes, else a
    /// circle at its point), then one over each name, so that a name
    /// outside its province's outline clicks as its own. The group's
    /// `data-geometry` is [`Picture::geometry`] as JSON.
    pub fn svg_click_layer(&self, state: &State, opts: &Options) -> String {
        let map = self.map();
        let geometry = self.geometry(state, opts).to_string();
        let mut s = format!(
            r#"<g id="hits" transform="translate(0,{TITLE_H})" fill="transparent" data-geometry="{}">"#,
            esc(&geometry)
        );
        for p in map.province_ids() {
            let abbr = esc(&map.province(p).abbr);
            if self.shapes.provinces.get(p.index()).is_some_and(|r| !r.is_empty()) {
                let _ = write!(s, r##"<use href="#p{}" data-province="{abbr}"/>"##, p.index());
            } else {
                let (x, y) = self.province_point(p);
                let _ = write!(
                    s,
                    r#"<circle cx="{}" cy="{}" r="16" data-province="{abbr}"/>"#,
                    fmt(x),
                    fmt(y)
                );
            }
        }
        if self.names_drawn(opts) {
            for p in map.province_ids() {
                let (x, y, w, h) = self.name_box(p);
                let _ = write!(
                    s,
                    r#"<rect class="name" x="{}" y="{}" width="{}" height="{}" data-province="{}"/>"#,
                    fmt(x),
                    fmt(y),
                    fmt(w),
                    fmt(h),
                    esc(&map.province(p).abbr)
                );
            }
        }
        s.push_str("</g>\n");
        s
    }

    /// The box of a province's name as drawn (and of its centre's marker
    /// beside it, when the marker is put there): x, y, width, height.
    pub fn name_box(&self, p: dip_core::ProvinceId) -> (f32, f32, f32, f32) {
        let (x0, y0, x1, y1) = name_box(
            self.name_point(p),
            label_chars(self.map(), p),
            self.centre_beside_name(p),
        );
        (x0, y0, x1 - x0, y1 - y0)
    }

    /// Where the page draws orders: the point of every region by its name
    /// (`par`, `stp/sc`), where dislodged units stand, each power's
    /// colours (`fill` of its units, `order` of its order marks, `ink` of
    /// the letter on its units, `letter`), the colour of failure, and `dy`,
    /// the map's offset under the title bar.
    pub fn geometry(&self, state: &State, opts: &Options) -> Value {
        let map = self.map();
        let pal = Palette::new(self.variant, opts.mode);
        let point = |(x, y): (f32, f32)| json!([round(x), round(y)]);
        let mut points = JsonMap::new();
        for (i, _) in map.regions().iter().enumerate() {
            let r = dip_core::RegionId(i as u16);
            points.insert(map.region_name(r), point(self.region_point(r)));
        }
        let mut dislodged = JsonMap::new();
        for piece in self.pieces(state).iter().filter(|p| p.dislodged) {
            let p = map.province_of(piece.unit.region);
            dislodged.insert(map.province(p).abbr.clone(), point(piece.at));
        }
        let mut powers = JsonMap::new();
        for p in map.power_ids() {
            powers.insert(
                map.power(p).name.clone(),
                json!({"fill": pal.power(p), "order": pal.order(p), "ink": pal.ink_on(p), "letter": pal.initial(p).to_string()}),
            );
        }
        let units: Vec<String> = map.unit_types().iter().map(|u| u.letter.to_string()).collect();
        json!({
            "dy": TITLE_H,
            "points": points,
            "dislodged": dislodged,
            "powers": powers,
            "units": units,
            "fail": pal.fail(),
            "outline": pal.unit_outline(),
        })
    }
}

fn round(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}
