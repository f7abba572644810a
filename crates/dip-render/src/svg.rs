//! The SVG picture of a position: provinces, owners, centres, units, orders
//! with their results, a title and a centre-count panel.

use crate::colour::{Palette, Rgb};
use crate::shapes::{path_data, Shapes};
use dip_core::{
    CoastSpec, Dest, Dislodged, Map, OrderKind, PhaseOutcome, PowerId, ProvinceId, RegionId, State, Terrain, Unit,
    UnitRef,
};
use dip_variants::Variant;
use std::fmt::Write;

/// How colours are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Powers in their colours.
    #[default]
    Colour,
    /// Colours turned to greys of the same lightness.
    Grey,
    /// Black on white; owners as hatching, one angle per power.
    BlackWhite,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s.to_ascii_lowercase().as_str() {
            "colour" | "color" => Some(Mode::Colour),
            "grey" | "gray" => Some(Mode::Grey),
            "bw" | "black-white" | "blackwhite" | "mono" => Some(Mode::BlackWhite),
            _ => None,
        }
    }
}

/// What to draw and how big.
#[derive(Clone, Debug)]
pub struct Options {
    /// Size factor: 1 gives one pixel per canvas unit (plus title and panel).
    pub scale: f32,
    pub mode: Mode,
    /// The title; `None` gives the variant's title and the phase.
    pub title: Option<String>,
    /// Province names.
    pub names: bool,
    /// The centre-count panel on the right.
    pub panel: bool,
    /// Each owned centre labelled with its owner (DIP's "Show centre owners").
    pub centre_owners: bool,
    /// The powers' colours in place of the variant's, by power index
    /// (DIP's "Unit colours"); `None` keeps the variant's.
    pub colours: Vec<Option<crate::colour::Rgb>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scale: 1.0,
            mode: Mode::Colour,
            title: None,
            names: true,
            panel: true,
            centre_owners: false,
            colours: Vec::new(),
        }
    }
}

impl Options {
    /// The scale for a print resolution: the canvas is drawn 96 units to the inch at 1×.
    pub fn with_dpi(mut self, dpi: f32) -> Self {
        self.scale = dpi / 96.0;
        self
    }
}

/// Height of the title bar and width of the panel, in canvas units.
pub const TITLE_H: f32 = 44.0;
pub const PANEL_W: f32 = 230.0;

/// A variant's picture, built once and drawn for any number of positions.
pub struct Picture<'a> {
    pub variant: &'a Variant,
    pub shapes: Shapes,
    /// Unit and name point per province.
    points: Vec<(f32, f32)>,
    /// Unit point per region.
    region_points: Vec<(f32, f32)>,
    /// A fleet's own point per region, where the map gives one
    /// (Realpolitik's special fleet position).
    fleet_points: Vec<Option<(f32, f32)>>,
    /// Where each province's name goes.
    name_points: Vec<(f32, f32)>,
    /// Where a centre's marker goes, when the map says (a jDip map's
    /// SUPPLY_CENTER points); else beside the name.
    centre_points: Vec<Option<(f32, f32)>>,
    /// The base drawn once, for [`Picture::png`]: (scale, mode, panel, pixels).
    base_pixels: std::sync::Mutex<Option<(f32, Mode, bool, resvg::tiny_skia::Pixmap)>>,
    /// A map picture drawn under everything (DipWork's blank map), when given.
    background: Option<Background>,
    /// The variant's unit pictures as `data:` URIs of PNGs with their
    /// size in pixels, indexed by power × number of unit types + unit
    /// type; `None`: the generated icon.
    unit_images: Vec<Option<UnitImage>>,
}

/// A unit picture ready to draw.
#[derive(Clone)]
struct UnitImage {
    uri: String,
    width: u32,
    height: u32,
}

/// The side of the square a unit picture is fitted into (the generated icons' size).
pub const UNIT_PICTURE_SIDE: f32 = 28.0;

/// Whether `variant` asks for large icons (Realpolitik's flag 8, `picture
/// icons large`: "icons are not transformed to standard size"): its unit
/// pictures are drawn at their own size, one map pixel a picture pixel.
pub fn large_icons(variant: &Variant) -> bool {
    variant
        .pictures
        .iter()
        .any(|(k, v)| k == "icons" && v.eq_ignore_ascii_case("large"))
}

/// The variant's unit pictures as `data:` URIs (BMPs, icons and TIFs turned into PNGs;
/// a picture that cannot be read keeps the generated icon).
fn unit_images(variant: &Variant) -> Vec<Option<UnitImage>> {
    let map = &variant.map;
    let types = map.unit_types().len();
    let mut v = vec![None; map.powers().len() * types];
    for u in &variant.unit_pictures {
        let i = u.power.index() * types + u.unit_type.index();
        let png = if u.bytes.starts_with(b"\x89PNG") {
            crate::raster::decode_png(&u.bytes)
                .ok()
                .map(|pm| (u.bytes.clone(), pm.width(), pm.height()))
        } else {
            crate::raster::decode_picture(&u.bytes)
                .and_then(|pm| Ok((crate::raster::encode_png(&pm)?, pm.width(), pm.height())))
                .ok()
        };
        if let (Some(slot), Some((png, width, height))) = (v.get_mut(i), png) {
            *slot = Some(UnitImage {
                uri: format!("data:image/png;base64,{}", crate::raster::base64(&png)),
                width,
                height,
            });
        }
    }
    v
}

/// A map picture: its PNG bytes (for SVG) and its pixels (for PNG).
struct Background {
    png: Vec<u8>,
    pixels: resvg::tiny_skia::Pixmap,
}

/// One unit to draw, possibly between two places (animation).
#[derive(Clone, Copy, Debug)]
pub struct Piece {
    pub unit: Unit,
    pub at: (f32, f32),
    /// A dislodged unit: drawn at full size on a red disc, beside the
    /// unit that took its place (both can be seen and clicked).
    pub dislodged: bool,
    pub opacity: f32,
}

impl<'a> Picture<'a> {
    pub fn new(variant: &'a Variant) -> Self {
        Picture::with_shapes(variant, Shapes::for_variant(variant))
    }

    /// A picture with the given shapes (a `.shapes` file, or a Realpolitik
    /// `.rgn` read with [`Shapes::from_rgn`]).
    pub fn with_shapes(variant: &'a Variant, mut shapes: Shapes) -> Self {
        let map = &variant.map;
        // One entry per province, whatever the caller built.
        shapes.provinces.resize(map.num_provinces(), Vec::new());
        shapes.width = shapes.width.max(1);
        shapes.height = shapes.height.max(1);
        // Shapes grown from the points were laid out on a canvas of sane
        // size (huge coordinates scaled down): units go where they did.
        let grown = |i: usize| shapes.points.get(i).copied().filter(|_| shapes.generated);
        // The shapes file's own points first: they were made with its outlines.
        let placed = |r: usize| shapes.places.units.get(r).copied().flatten();
        let points: Vec<(f32, f32)> = map
            .provinces()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                placed(p.regions.first().map_or(usize::MAX, |r| r.index()))
                    .or(grown(i))
                    .or(p.pos)
                    .or(shapes.points.get(i).copied())
                    .unwrap_or((0.0, 0.0))
            })
            .collect();
        let moved = |i: usize| map.provinces()[i].pos.is_some_and(|q| q != points[i]);
        let region_points: Vec<(f32, f32)> = map
            .regions()
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let i = r.province.index();
                placed(k).or(r.pos.filter(|_| !moved(i))).unwrap_or(points[i])
            })
            .collect();
        let fleet_points: Vec<Option<(f32, f32)>> = map
            .regions()
            .iter()
            .enumerate()
            .map(|(k, r)| {
                r.fleet_pos
                    .filter(|_| placed(k).is_none() && !moved(r.province.index()))
            })
            .collect();
        let mut name_points = place_names(variant, &shapes, &points, &region_points);
        for (i, n) in name_points.iter_mut().enumerate() {
            if let Some(at) = shapes.places.names.get(i).copied().flatten() {
                *n = at;
            }
        }
        let centre_points = shapes.places.centres.clone();
        Picture {
            variant,
            shapes,
            points,
            region_points,
            fleet_points,
            name_points,
            centre_points,
            base_pixels: std::sync::Mutex::new(None),
            background: None,
            unit_images: unit_images(variant),
        }
    }

    /// A picture drawn over a map picture (PNG or BMP, e.g. a variant's blank
    /// map, as DipWork's mapper drew units onto one): the picture's pixels
    /// are the canvas, the variant's `at=` points are in them. Provinces
    /// are filled by owner only where the given shapes are real (not grown).
    pub fn with_background(variant: &'a Variant, shapes: Shapes, bytes: Vec<u8>) -> Result<Self, crate::RasterError> {
        let pixels = crate::raster::decode_picture(&bytes)?;
        // The SVG carries the picture as PNG.
        let png_bytes = if !bytes.starts_with(b"\x89PNG") {
            crate::raster::encode_png(&pixels)?
        } else {
            bytes
        };
        let mut shapes = shapes;
        if shapes.generated {
            shapes.provinces = vec![Vec::new(); variant.map.num_provinces()];
            shapes.generated = false;
        }
        shapes.land.clear();
        shapes.width = pixels.width();
        shapes.height = pixels.height();
        let mut pic = Picture::with_shapes(variant, shapes);
        pic.background = Some(Background { png: png_bytes, pixels });
        Ok(pic)
    }

    /// The base drawn once per scale, mode and panel, and kept.
    pub fn base_pixmap(&self, opts: &Options) -> Result<resvg::tiny_skia::Pixmap, crate::RasterError> {
        let mut guard = self.base_pixels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((sc, m, p, pm)) = &*guard {
            if *sc == opts.scale && *m == opts.mode && *p == opts.panel {
                return Ok(pm.clone());
            }
        }
        let svg = format!("{}{}</svg>", self.svg_open(opts), self.base_svg(opts, false));
        let pm = match &self.background {
            None => crate::raster::pixmap(&svg)?,
            Some(bg) => {
                let (w, h) = self.size(opts);
                let (pw, ph) = ((w * opts.scale).ceil() as u32, (h * opts.scale).ceil() as u32);
                let mut pm = resvg::tiny_skia::Pixmap::new(pw, ph).ok_or(crate::RasterError::Size(pw, ph))?;
                pm.fill(resvg::tiny_skia::Color::WHITE);
                let t = resvg::tiny_skia::Transform::from_scale(opts.scale, opts.scale).pre_translate(0.0, TITLE_H);
                let paint = resvg::tiny_skia::PixmapPaint {
                    quality: resvg::tiny_skia::FilterQuality::Bicubic,
                    ..Default::default()
                };
                pm.draw_pixmap(0, 0, bg.pixels.as_ref(), &paint, t, None);
                crate::raster::render_onto(&svg, &mut pm)?;
                pm
            }
        };
        *guard = Some((opts.scale, opts.mode, opts.panel, pm.clone()));
        Ok(pm)
    }

    /// The PNG of [`Picture::svg`]. The map's base (sea, land, outlines) is
    /// drawn once per scale and mode and kept, so drawing many positions of
    /// one variant costs only what changes.
    pub fn png(
        &self,
        state: &State,
        outcome: Option<&PhaseOutcome>,
        opts: &Options,
    ) -> Result<Vec<u8>, crate::RasterError> {
        let pm = self.pixmap(state, outcome, &self.pieces(state), opts)?;
        crate::raster::encode_png(&pm)
    }

    /// The pixels of [`Picture::svg_frame`], over the kept base.
    pub fn pixmap(
        &self,
        state: &State,
        outcome: Option<&PhaseOutcome>,
        pieces: &[Piece],
        opts: &Options,
    ) -> Result<resvg::tiny_skia::Pixmap, crate::RasterError> {
        let mut pm = self.base_pixmap(opts)?;
        let layer = format!(
            "{}{}</svg>",
            self.svg_open(opts),
            self.svg_overlay(state, outcome, pieces, opts, false)
        );
        let tree = crate::raster::tree(&layer)?;
        resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pm.as_mut());
        Ok(pm)
    }

    pub fn map(&self) -> &Map {
        &self.variant.map
    }

    /// Width and height of the whole picture at scale 1.
    pub fn size(&self, opts: &Options) -> (f32, f32) {
        let w = self.shapes.width as f32 + if opts.panel { PANEL_W } else { 0.0 };
        (w, self.shapes.height as f32 + TITLE_H)
    }

    /// Where a unit in this region is drawn.
    pub fn region_point(&self, r: RegionId) -> (f32, f32) {
        self.region_points.get(r.index()).copied().unwrap_or((0.0, 0.0))
    }

    /// Where `unit` is drawn: its region's point, or the region's own
    /// place for fleets (types that use coasts) where the map gives one.
    pub fn unit_at(&self, unit: &Unit) -> (f32, f32) {
        let fleet = self
            .map()
            .unit_types()
            .get(unit.kind.index())
            .is_some_and(|t| t.uses_coasts);
        match self.fleet_points.get(unit.region.index()).copied().flatten() {
            Some(at) if fleet => at,
            _ => self.region_point(unit.region),
        }
    }

    /// Where a dislodged `unit` is drawn: beside the unit that took its
    /// place, on the first side of [`ASIDE`] where its icon covers no unit
    /// of another province, else where it comes nearest to that.
    pub fn aside(&self, unit: &Unit) -> (f32, f32) {
        let map = self.map();
        let own = map.province_of(unit.region);
        let (x, y) = self.unit_at(unit);
        // Where the units of the other provinces stand (armies and fleets).
        let others: Vec<(f32, f32)> = map
            .regions()
            .iter()
            .enumerate()
            .filter(|(_, r)| r.province != own)
            .flat_map(|(k, _)| {
                [
                    Some(self.region_point(RegionId(k as u16))),
                    self.fleet_points.get(k).copied().flatten(),
                ]
            })
            .flatten()
            .collect();
        // How far an icon at `c` is from covering another's: >= 0 when clear.
        let clearance = |(cx, cy): (f32, f32)| {
            others
                .iter()
                .map(|&(ox, oy)| ((cx - ox).abs() - ICON.0).max((cy - oy).abs() - ICON.1))
                .fold(f32::INFINITY, f32::min)
        };
        let mut best = (f32::NEG_INFINITY, (x + ASIDE[0].0, y + ASIDE[0].1));
        for (dx, dy) in ASIDE {
            let at = (x + dx, y + dy);
            let c = clearance(at);
            if c >= 0.0 {
                return at;
            }
            if c > best.0 {
                best = (c, at);
            }
        }
        best.1
    }

    pub fn province_point(&self, p: ProvinceId) -> (f32, f32) {
        self.points.get(p.index()).copied().unwrap_or((0.0, 0.0))
    }

    /// The SVG of `state`, with the orders and results of `outcome` when
    /// given (the units stand where they stood when the orders were given).
    pub fn svg(&self, state: &State, outcome: Option<&PhaseOutcome>, opts: &Options) -> String {
        let pieces = self.pieces(state);
        self.svg_frame(state, outcome, &pieces, opts)
    }

    /// The units of `state` where they stand; dislodged units beside.
    pub fn pieces(&self, state: &State) -> Vec<Piece> {
        let mut v: Vec<Piece> = state
            .units()
            .map(|(_, u)| Piece {
                unit: u,
                at: self.unit_at(&u),
                dislodged: false,
                opacity: 1.0,
            })
            .collect();
        for (_, d) in state.all_dislodged() {
            v.push(Piece {
                unit: d.unit,
                at: self.aside(&d.unit),
                dislodged: true,
                opacity: 1.0,
            });
        }
        v
    }

    /// One picture with the given pieces (the animation moves them).
    pub fn svg_frame(&self, state: &State, outcome: Option<&PhaseOutcome>, pieces: &[Piece], opts: &Options) -> String {
        let mut s = self.svg_open(opts);
        s.push_str(&self.svg_base(opts));
        s.push_str(&self.svg_overlay(state, outcome, pieces, opts, true));
        s.push_str("</svg>\n");
        s
    }

    /// The `<svg>` start tag.
    pub fn svg_open(&self, opts: &Options) -> String {
        let (w, h) = self.size(opts);
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{}" height="{}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans">"#,
            fmt(w * opts.scale),
            fmt(h * opts.scale),
        ) + "\n"
    }

    /// What every position of the variant shares: patterns, sea, land,
    /// the province outlines (with ids `pN`, N the province index) and names.
    pub fn svg_base(&self, opts: &Options) -> String {
        self.base_svg(opts, true)
    }

    fn base_svg(&self, opts: &Options, with_picture: bool) -> String {
        let pal = Palette::for_options(self.variant, opts);
        let mut s = String::with_capacity(120_000);
        self.write_defs(&mut s, &pal);
        let _ = writeln!(s, r#"<g transform="translate(0,{TITLE_H})">"#);
        self.write_base(&mut s, &pal, with_picture);
        if self.names_drawn(opts) {
            self.write_names(&mut s, &pal);
        }
        s.push_str("</g>\n");
        s
    }

    /// What one position adds: owners, centres, standoffs, orders,
    /// units, title and panel: [`Picture::svg_position`] then
    /// [`Picture::svg_moment`].
    pub fn svg_overlay(
        &self,
        state: &State,
        outcome: Option<&PhaseOutcome>,
        pieces: &[Piece],
        opts: &Options,
        by_reference: bool,
    ) -> String {
        self.svg_position(state, opts, by_reference) + &self.svg_moment(state, outcome, pieces, opts)
    }

    /// What changes once a phase: owned provinces, centres, title and panel. With `by_reference`, owned provinces refer to the
    /// outlines of [`Picture::svg_base`]; else they carry their own outline
    /// (to draw this layer alone over a picture of the base).
    pub fn svg_position(&self, state: &State, opts: &Options, by_reference: bool) -> String {
        let pal = Palette::for_options(self.variant, opts);
        let mut s = String::with_capacity(40_000);
        if !by_reference && pal.mode == Mode::BlackWhite {
            // Drawn alone over a kept base (PNG, BMP, animations): the
            // hatching its owners and panel are filled with comes along.
            s.push_str("<defs>\n");
            self.write_owner_patterns(&mut s, &pal);
            s.push_str("</defs>\n");
        }
        let _ = writeln!(s, r#"<g transform="translate(0,{TITLE_H})">"#);
        self.write_owners(&mut s, state, &pal, by_reference);
        self.write_centres(&mut s, state, &pal, opts.centre_owners);
        s.push_str("</g>\n");
        self.write_title(&mut s, state, &pal, opts);
        if opts.panel {
            self.write_panel(&mut s, state, &pal);
        }
        s
    }

    /// What changes from moment to moment: standoffs, orders and units.
    pub fn svg_moment(
        &self,
        state: &State,
        outcome: Option<&PhaseOutcome>,
        pieces: &[Piece],
        opts: &Options,
    ) -> String {
        self.svg_moment_over(state, outcome.map(|o| (state, o)), pieces, opts)
    }

    /// [`Picture::svg_moment`] over the position `standing`: its standoffs
    /// and the `pieces`, and, when `given`, orders and their results drawn
    /// where they were given (that position, and what became of them),
    /// in groups of class `results` that a page may hide. The map of now
    /// draws the last phase's orders over the position they led to; a
    /// played phase, its orders over its own position.
    pub fn svg_moment_over(
        &self,
        standing: &State,
        given: Option<(&State, &PhaseOutcome)>,
        pieces: &[Piece],
        opts: &Options,
    ) -> String {
        let pal = Palette::for_options(self.variant, opts);
        let mut s = String::with_capacity(20_000);
        if pal.mode != Mode::Colour && self.unit_images.iter().any(Option::is_some) {
            // Unit pictures in grey (the moment layer carries its own defs,
            // as it is also drawn alone over a kept base).
            s.push_str(r#"<defs><filter id="unitgrey"><feColorMatrix type="saturate" values="0"/></filter></defs>"#);
            s.push('\n');
        }
        let _ = writeln!(s, r#"<g transform="translate(0,{TITLE_H})">"#);
        // The position's standoffs are no result to hide: in a retreat
        // phase no unit may retreat there.
        let own: Vec<usize> = standing.standoffs.iter().collect();
        self.write_standoffs(&mut s, &own, &pal);
        if let Some((before, o)) = given {
            s.push_str(r#"<g class="results">"#);
            if let PhaseOutcome::Movement(m) = o {
                let more: Vec<usize> = m.standoffs.iter().filter(|p| !own.contains(p)).collect();
                self.write_standoffs(&mut s, &more, &pal);
            }
            self.write_orders(&mut s, before, o, pieces, &pal);
            s.push_str("</g>\n");
        }
        for p in pieces {
            self.write_piece(&mut s, p, &pal);
        }
        if let Some((_, o)) = given {
            s.push_str(r#"<g class="results">"#);
            self.write_results(&mut s, o, pieces, &pal);
            s.push_str("</g>\n");
        }
        s.push_str("</g>\n");
        s
    }

    /// The position `now` as a page shows it: with the click layer when
    /// `clickable` ([`Picture::svg_click_layer`], under the units), and
    /// the orders and results of the phase that led to it when given
    /// (`last`: the position they were given in and what became of them;
    /// [`Picture::svg_moment_over`]). The moment is in a group of class
    /// `moment`, which a page's stylesheet lets clicks through but for
    /// its units.
    pub fn svg_scene(
        &self,
        now: &State,
        last: Option<(&State, &PhaseOutcome)>,
        opts: &Options,
        clickable: bool,
    ) -> String {
        let pieces = self.pieces(now);
        let mut s = self.svg_open(opts);
        s.push_str(&self.svg_base(opts));
        s.push_str(&self.svg_position(now, opts, true));
        if clickable {
            s.push_str(&self.svg_click_layer(now, opts));
        }
        s.push_str(r#"<g class="moment">"#);
        s.push_str(&self.svg_moment_over(now, last, &pieces, opts));
        s.push_str("</g>\n</svg>\n");
        s
    }

    /// Black and white: each power's hatching, which its provinces and its
    /// panel swatch are filled with.
    fn write_owner_patterns(&self, s: &mut String, pal: &Palette) {
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

    fn write_defs(&self, s: &mut String, pal: &Palette) {
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

    fn write_base(&self, s: &mut String, pal: &Palette, with_picture: bool) {
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

    fn write_owners(&self, s: &mut String, state: &State, pal: &Palette, by_reference: bool) {
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

    fn write_names(&self, s: &mut String, pal: &Palette) {
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

    fn write_centres(&self, s: &mut String, state: &State, pal: &Palette, owners: bool) {
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

    /// Each standoff's mark: a red dashed ring crossed, named by its
    /// province (`data-province`) for pages and tests.
    fn write_standoffs(&self, s: &mut String, provinces: &[usize], pal: &Palette) {
        let map = self.map();
        for &p in provinces {
            let id = ProvinceId(p as u16);
            let (x, y) = self.province_point(id);
            let red = pal.fail();
            let _ = write!(
                s,
                r#"<g class="standoff" data-province="{}" pointer-events="none" stroke="{red}" stroke-width="2.2" fill="none"><circle cx="{}" cy="{}" r="15" stroke-dasharray="4 3"/><path d="M{},{} l12,12 M{},{} l-12,12"/></g>"#,
                esc(&map.province(id).abbr),
                fmt(x),
                fmt(y),
                fmt(x - 6.0),
                fmt(y - 6.0),
                fmt(x + 6.0),
                fmt(y - 6.0)
            );
        }
    }

    fn dest_point(&self, d: &Dest) -> (f32, f32) {
        match d.coast {
            CoastSpec::Coast(r) => self.region_point(r),
            _ => self.province_point(d.province),
        }
    }

    /// Where the ordered unit stands (a dislodged one beside its province).
    fn unit_point(&self, state: &State, pieces: &[Piece], u: &UnitRef, retreat: bool) -> (f32, f32) {
        if retreat {
            if let Some(d) = state.dislodged(u.province) {
                return self.aside(&d.unit);
            }
        }
        // A unit the orders dislodged, drawn beside its province in the
        // position after them (the map of now): its order starts there.
        let map = self.map();
        if let Some(p) = pieces
            .iter()
            .find(|p| p.dislodged && map.province_of(p.unit.region) == u.province)
        {
            return p.at;
        }
        match state.unit(u.province) {
            Some(unit) => self.unit_at(&unit),
            None => match u.coast {
                CoastSpec::Coast(r) => self.region_point(r),
                _ => self.province_point(u.province),
            },
        }
    }

    fn write_orders(&self, s: &mut String, state: &State, outcome: &PhaseOutcome, pieces: &[Piece], pal: &Palette) {
        let map = self.map();
        s.push_str(r#"<g class="orders" fill="none" stroke-linecap="round" pointer-events="none">"#);
        s.push('\n');
        // Moves of each unit, to aim supports and convoys at.
        let mut moving: Vec<Option<(f32, f32)>> = vec![None; map.num_provinces()];
        for r in outcome.orders() {
            if let OrderKind::Move(u, d, _) = r.order.kind {
                moving[u.province.index()] = Some(self.dest_point(&d));
            }
        }
        for r in outcome.orders() {
            let ok = r.verdict.succeeded();
            let colour = pal.order(r.order.power);
            let Some((kind, at)) = order_kind(&r.order.kind) else {
                continue;
            };
            // Each order's marks in a group that says what it was, where
            // its unit stood and how it fared (pages and tests read it).
            let _ = write!(
                s,
                r#"<g class="order {kind} {}" data-at="{}">"#,
                if ok { "succeeded" } else { "failed" },
                esc(&map.province(at).abbr)
            );
            match r.order.kind {
                OrderKind::Hold(u) => hold_mark(s, self.unit_point(state, pieces, &u, false), &colour, ok, pal),
                OrderKind::Move(u, d, via) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let b = self.dest_point(&d);
                    let curved = via || !self.direct(state, &u, &d);
                    arrow(s, a, b, &colour, ok, curved, false, pal);
                }
                OrderKind::Retreat(u, d) => {
                    let a = self.unit_point(state, pieces, &u, true);
                    let b = self.dest_point(&d);
                    arrow(s, a, b, &colour, ok, false, true, pal);
                }
                OrderKind::SupportHold(u, t) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let b = self.unit_point(state, pieces, &t, false);
                    support_hold_mark(s, (a, b), &colour, ok, pal);
                }
                OrderKind::SupportMove(u, t, d) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let from = self.unit_point(state, pieces, &t, false);
                    let to = self.dest_point(&d);
                    // Whether the supported unit moves there; if not, the
                    // move it was asked for is shown too.
                    let moves = moving[t.province.index()].is_some();
                    support_move_mark(s, a, (from, to, moves), &colour, ok, pal);
                }
                OrderKind::Convoy(u, t, d) => {
                    let a = self.unit_point(state, pieces, &u, false);
                    let from = self.unit_point(state, pieces, &t, false);
                    let to = self.dest_point(&d);
                    convoy_mark(s, a, (from, to), &colour, ok, pal);
                }
                OrderKind::Build(u) => {
                    let r = match u.coast {
                        CoastSpec::Coast(r) => r,
                        _ => map.main_region(u.province),
                    };
                    build_mark(s, self.region_point(r), &colour, ok, pal);
                }
                OrderKind::Disband(u) => {
                    let retreat = matches!(outcome, PhaseOutcome::Retreat(_));
                    disband_mark(s, self.unit_point(state, pieces, &u, retreat), ok, pal);
                }
                OrderKind::Waive => {}
            }
            s.push_str("</g>");
        }
        s.push_str("</g>\n");
    }

    /// What the units do not show: units built in an adjustment phase
    /// (over the position they were ordered in), units a movement
    /// dislodges (a broken ring where they stood; the position after
    /// shows them beside, marked as dislodged).
    fn write_results(&self, s: &mut String, outcome: &PhaseOutcome, pieces: &[Piece], pal: &Palette) {
        match outcome {
            PhaseOutcome::Adjustment(a) => {
                for u in a.built.iter().filter(|u| !pieces.iter().any(|p| p.unit == **u)) {
                    let p = Piece {
                        unit: *u,
                        at: self.region_point(u.region),
                        dislodged: false,
                        opacity: 0.85,
                    };
                    self.write_piece(s, &p, pal);
                }
            }
            PhaseOutcome::Movement(m) => {
                let aside = |d: &Dislodged| pieces.iter().any(|p| p.dislodged && p.unit == d.unit);
                for d in m.dislodged.iter().filter(|d| !aside(d)) {
                    let (x, y) = self.region_point(d.unit.region);
                    let _ = write!(
                        s,
                        r#"<circle class="dislodged" cx="{}" cy="{}" r="15" fill="none" stroke="{}" stroke-width="2.6" stroke-dasharray="8 4"/>"#,
                        fmt(x),
                        fmt(y),
                        pal.fail()
                    );
                }
            }
            PhaseOutcome::Retreat(_) => {}
        }
    }

    /// Can the unit move there without a convoy?
    fn direct(&self, state: &State, u: &UnitRef, d: &Dest) -> bool {
        let Some(unit) = state.unit(u.province) else {
            return true;
        };
        self.map().reaches(unit.kind, unit.region, d.province)
            || self
                .map()
                .moves_into(unit.kind, unit.region, d.province)
                .next()
                .is_some()
    }

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

    fn write_title(&self, s: &mut String, state: &State, pal: &Palette, opts: &Options) {
        let (w, _) = self.size(opts);
        let title = opts
            .title
            .clone()
            .unwrap_or_else(|| format!("{} — {}", self.variant.title, state.phase.long()));
        let _ = write!(
            s,
            r#"<rect width="{}" height="{TITLE_H}" fill="{}"/><text x="14" y="29" font-size="20" font-weight="bold" fill="{}">{}</text>"#,
            fmt(w),
            pal.title_bar(),
            pal.title_text(),
            esc(&clip(&title, 200))
        );
        s.push('\n');
    }

    fn write_panel(&self, s: &mut String, state: &State, pal: &Palette) {
        let x0 = self.shapes.width as f32;
        let h = self.shapes.height as f32;
        let _ = write!(
            s,
            r#"<g transform="translate({},{TITLE_H})"><rect width="{PANEL_W}" height="{}" fill="{}"/>"#,
            fmt(x0),
            fmt(h),
            pal.panel()
        );
        let _ = write!(
            s,
            r#"<text x="14" y="28" font-size="15" font-weight="bold" fill="{}">Centres</text><text x="{}" y="28" font-size="11" text-anchor="end" fill="{}">units</text>"#,
            pal.text(),
            fmt(PANEL_W - 14.0),
            pal.text()
        );
        let y = self.write_centre_counts(s, state, pal);
        // A key to the order marks, at the foot of the panel when it fits.
        let ky = h - 150.0;
        if ky > y + 40.0 {
            write_order_key(s, pal, ky);
        }
        s.push_str("</g>\n");
    }

    /// Each power's centres and units, most centres first; then the neutral
    /// and total centres and how many win. Returns where the text ends.
    fn write_centre_counts(&self, s: &mut String, state: &State, pal: &Palette) -> f32 {
        let map = self.map();
        let h = self.shapes.height as f32;
        let mut rows: Vec<(PowerId, usize, usize)> = map
            .power_ids()
            .map(|p| {
                (
                    p,
                    state.center_count(map, p),
                    state.units().filter(|(_, u)| u.power == p).count(),
                )
            })
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let row_h = ((h - 120.0) / rows.len().max(1) as f32).min(26.0);
        let fs = (row_h * 0.55).clamp(7.0, 13.0);
        for (i, (p, c, u)) in rows.iter().enumerate() {
            let y = 44.0 + i as f32 * row_h;
            let name = &clip(&map.power(*p).name, MAX_LABEL);
            let _ = write!(
                s,
                r#"<rect x="14" y="{}" width="{}" height="{}" rx="2" fill="{}" stroke="{}" stroke-width="0.8"/><text x="{}" y="{}" font-size="{}" fill="{}">{}</text><text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="end" fill="{}">{c}</text><text x="{}" y="{}" font-size="{}" text-anchor="end" fill="{}">{u}</text>"#,
                fmt(y),
                fmt(row_h * 0.7),
                fmt(row_h * 0.7),
                pal.owner_tint(*p),
                pal.text(),
                fmt(20.0 + row_h * 0.7),
                fmt(y + row_h * 0.55),
                fmt(fs),
                pal.text(),
                esc(name),
                fmt(PANEL_W - 50.0),
                fmt(y + row_h * 0.55),
                fmt(fs),
                pal.text(),
                fmt(PANEL_W - 14.0),
                fmt(y + row_h * 0.55),
                fmt(fs),
                pal.text(),
            );
        }
        let total = map.supply_centers().len();
        let owned: usize = rows.iter().map(|r| r.1).sum();
        let y = 44.0 + rows.len() as f32 * row_h + 18.0;
        let _ = write!(
            s,
            r#"<text x="14" y="{}" font-size="11" fill="{}">Neutral {} · total {total}</text><text x="14" y="{}" font-size="11" fill="{}">{} centres win</text>"#,
            fmt(y),
            pal.text(),
            total - owned.min(total),
            fmt(y + 16.0),
            pal.text(),
            map.victory_centers()
        );
        y
    }
}

/// The key to the order marks: move, support, convoy, failed, dislodged
/// and standoff, as the map draws them.
fn write_order_key(s: &mut String, pal: &Palette, ky: f32) {
    let ink = pal.text();
    let red = pal.fail();
    let _ = write!(
        s,
        r#"<g font-size="11" fill="{ink}"><text x="14" y="{}" font-weight="bold">Orders</text>"#,
        fmt(ky)
    );
    let rows: [(&str, String); 6] = [
        (
            "move",
            format!(
                r#"<path d="M0,0 h22" stroke="{ink}" stroke-width="3"/><path d="M30,0 l-9,-5 v10 Z" fill="{ink}"/>"#
            ),
        ),
        (
            "support",
            format!(r#"<path d="M0,0 h30" stroke="{ink}" stroke-width="2.4" stroke-dasharray="6 4"/>"#),
        ),
        (
            "convoy",
            format!(
                r#"<path d="M0,0 h30" stroke="{ink}" stroke-width="2.2" stroke-dasharray="1 5" stroke-linecap="round"/>"#
            ),
        ),
        (
            "failed",
            format!(
                r#"<path d="M10,-5 l10,10 M20,-5 l-10,10" stroke="{red}" stroke-width="3.4" stroke-linecap="round"/>"#
            ),
        ),
        (
            "dislodged",
            format!(
                r#"<circle cx="15" cy="0" r="8" fill="none" stroke="{red}" stroke-width="2.4" stroke-dasharray="5 3"/>"#
            ),
        ),
        (
            "standoff",
            format!(
                r#"<circle cx="15" cy="0" r="8" fill="none" stroke="{red}" stroke-width="2" stroke-dasharray="4 3"/><path d="M11,-4 l8,8 M19,-4 l-8,8" stroke="{red}" stroke-width="2"/>"#
            ),
        ),
    ];
    for (k, (name, mark)) in rows.iter().enumerate() {
        let yy = ky + 20.0 + k as f32 * 19.0;
        let _ = write!(
            s,
            r#"<g transform="translate(16,{})" fill="none">{mark}</g><text x="58" y="{}">{name}</text>"#,
            fmt(yy - 4.0),
            fmt(yy)
        );
    }
    s.push_str("</g>");
}

/// Where the names go: the variant's `label=`; else, on a map with
/// shapes, below the unit's point, unless that spot lies outside the
/// province or near another unit's point: then the spot beside it (above,
/// to a side) inside the province and farthest from other units; else
/// below the point.
fn place_names(
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
                let inside = if inside(rings, c) { 100.0 } else { 0.0 };
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

fn overlap(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Is the point inside the rings (even-odd)?
fn inside(rings: &[crate::regions::Ring], (px, py): (f32, f32)) -> bool {
    let mut inside = false;
    for r in rings {
        for k in 0..r.len() {
            let (x0, y0) = (r[k].0 as f32, r[k].1 as f32);
            let (x1, y1) = (r[(k + 1) % r.len()].0 as f32, r[(k + 1) % r.len()].1 as f32);
            if (y0 > py) != (y1 > py) && px < x0 + (py - y0) / (y1 - y0) * (x1 - x0) {
                inside = !inside;
            }
        }
    }
    inside
}

/// Where a dislodged unit may be drawn, from the unit that took its place,
/// in the order tried: far enough that both icons (28 × 22 units) are
/// in sight and can be clicked, below and to the right first.
pub const ASIDE: [(f32, f32); 6] = [
    (25.0, 12.0),
    (-25.0, 12.0),
    (25.0, -12.0),
    (-25.0, -12.0),
    (0.0, 24.0),
    (0.0, -24.0),
];

/// A unit icon's width and height: two icons whose centres are closer
/// than this on both axes overlap.
pub const ICON: (f32, f32) = (28.0, 22.0);

/// An order's kind as pages name it, and the province of its unit;
/// none for a waived build.
fn order_kind(k: &OrderKind) -> Option<(&'static str, ProvinceId)> {
    Some(match k {
        OrderKind::Hold(u) => ("hold", u.province),
        OrderKind::Move(u, ..) => ("move", u.province),
        OrderKind::SupportHold(u, _) | OrderKind::SupportMove(u, ..) => ("support", u.province),
        OrderKind::Convoy(u, ..) => ("convoy", u.province),
        OrderKind::Retreat(u, _) => ("retreat", u.province),
        OrderKind::Disband(u) => ("disband", u.province),
        OrderKind::Build(u) => ("build", u.province),
        OrderKind::Waive => return None,
    })
}

/// A hold: a ring round the unit.
fn hold_mark(s: &mut String, (x, y): (f32, f32), colour: &str, ok: bool, pal: &Palette) {
    let _ = write!(
        s,
        r#"<circle cx="{}" cy="{}" r="17" stroke="{colour}" stroke-width="3"/>"#,
        fmt(x),
        fmt(y)
    );
    if !ok {
        cross(s, (x + 14.0, y - 14.0), pal);
    }
}

/// A support to hold: a dashed line from the supporter `a` to a dashed
/// ring round the supported unit `b`.
fn support_hold_mark(s: &mut String, (a, b): ((f32, f32), (f32, f32)), colour: &str, ok: bool, pal: &Palette) {
    let (a2, b2) = shorten(a, b, 12.0, 19.0);
    let _ = write!(
        s,
        r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="2.4" stroke-dasharray="6 4"{}/><circle cx="{}" cy="{}" r="19" stroke="{colour}" stroke-width="2" stroke-dasharray="6 4"/>"#,
        fmt(a2.0),
        fmt(a2.1),
        fmt(b2.0),
        fmt(b2.1),
        dim(ok),
        fmt(b.0),
        fmt(b.1)
    );
    if !ok {
        cross(s, mid(a2, b2), pal);
    }
}

/// A support to move: a dashed line from the supporter `a` to a dot in
/// the middle of the supported move (`from`, `to`), and the move itself,
/// faint, when the supported unit does not make it (`moves` false).
fn support_move_mark(
    s: &mut String,
    a: (f32, f32),
    (from, to, moves): ((f32, f32), (f32, f32), bool),
    colour: &str,
    ok: bool,
    pal: &Palette,
) {
    let target = mid(from, to);
    let (a2, _) = shorten(a, target, 12.0, 0.0);
    let _ = write!(
        s,
        r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="2.4" stroke-dasharray="6 4"{}/><circle cx="{}" cy="{}" r="3.5" fill="{colour}" stroke="none"/>"#,
        fmt(a2.0),
        fmt(a2.1),
        fmt(target.0),
        fmt(target.1),
        dim(ok),
        fmt(target.0),
        fmt(target.1)
    );
    if !moves {
        let (f2, t2) = shorten(from, to, 12.0, 14.0);
        let _ = write!(
            s,
            r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="1.4" stroke-dasharray="2 3" opacity="0.7"/>"#,
            fmt(f2.0),
            fmt(f2.1),
            fmt(t2.0),
            fmt(t2.1)
        );
    }
    if !ok {
        cross(s, mid(a2, target), pal);
    }
}

/// A convoy: a dotted line from the convoyed unit (`from`) through the
/// convoying fleet `a` to the destination `to`.
fn convoy_mark(
    s: &mut String,
    a: (f32, f32),
    (from, to): ((f32, f32), (f32, f32)),
    colour: &str,
    ok: bool,
    pal: &Palette,
) {
    let (p1, _) = shorten(from, a, 12.0, 0.0);
    let (_, p3) = shorten(a, to, 0.0, 14.0);
    let _ = write!(
        s,
        r#"<path d="M{},{} L{},{} L{},{}" stroke="{colour}" stroke-width="2.2" stroke-dasharray="1 5" stroke-linejoin="round"{}/>"#,
        fmt(p1.0),
        fmt(p1.1),
        fmt(a.0),
        fmt(a.1),
        fmt(p3.0),
        fmt(p3.1),
        dim(ok)
    );
    if !ok {
        cross(s, (a.0 + 14.0, a.1 - 14.0), pal);
    }
}

/// A build: a dashed ring with a plus where the unit is to stand.
fn build_mark(s: &mut String, (x, y): (f32, f32), colour: &str, ok: bool, pal: &Palette) {
    let _ = write!(
        s,
        r#"<circle cx="{}" cy="{}" r="19" stroke="{colour}" stroke-width="2.4" stroke-dasharray="5 3"/><path d="M{},{} h10 M{},{} v10" stroke="{colour}" stroke-width="3"/>"#,
        fmt(x),
        fmt(y),
        fmt(x + 13.0),
        fmt(y - 17.0),
        fmt(x + 18.0),
        fmt(y - 22.0)
    );
    if !ok {
        cross(s, (x, y), pal);
    }
}

/// A disband: a cross over the unit.
fn disband_mark(s: &mut String, (x, y): (f32, f32), ok: bool, pal: &Palette) {
    let _ = write!(
        s,
        r#"<path d="M{},{} l20,20 M{},{} l-20,20" stroke="{}" stroke-width="3.2"{}/>"#,
        fmt(x - 10.0),
        fmt(y - 10.0),
        fmt(x + 10.0),
        fmt(y - 10.0),
        pal.fail(),
        dim(ok)
    );
}

fn mid(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The segment a→b with `sa` cut from its start and `sb` from its end.
fn shorten(a: (f32, f32), b: (f32, f32), sa: f32, sb: f32) -> ((f32, f32), (f32, f32)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < sa + sb + 4.0 {
        return (a, b);
    }
    let (ux, uy) = (dx / len, dy / len);
    ((a.0 + ux * sa, a.1 + uy * sa), (b.0 - ux * sb, b.1 - uy * sb))
}

fn dim(ok: bool) -> &'static str {
    if ok {
        ""
    } else {
        r#" opacity="0.6""#
    }
}

/// A failed order: a red cross.
fn cross(s: &mut String, (x, y): (f32, f32), pal: &Palette) {
    let _ = write!(
        s,
        r#"<path d="M{},{} l10,10 M{},{} l-10,10" stroke="{}" stroke-width="3.4" stroke-linecap="round"/>"#,
        fmt(x - 5.0),
        fmt(y - 5.0),
        fmt(x + 5.0),
        fmt(y - 5.0),
        pal.fail()
    );
}

/// A move or retreat arrow with its head; curved for a convoyed move.
#[allow(clippy::too_many_arguments)]
fn arrow(
    s: &mut String,
    a: (f32, f32),
    b: (f32, f32),
    colour: &str,
    ok: bool,
    curved: bool,
    retreat: bool,
    pal: &Palette,
) {
    let (a2, b2) = shorten(a, b, 12.0, 13.0);
    let (dx, dy) = (b2.0 - a2.0, b2.1 - a2.1);
    let len = (dx * dx + dy * dy).sqrt().max(0.01);
    let (ux, uy) = (dx / len, dy / len);
    // The head's direction: along the line, or along the curve's end.
    let (ctrl, hx, hy) = if curved {
        let c = (a2.0 + dx / 2.0 - uy * len * 0.25, a2.1 + dy / 2.0 + ux * len * 0.25);
        let (ex, ey) = (b2.0 - c.0, b2.1 - c.1);
        let el = (ex * ex + ey * ey).sqrt().max(0.01);
        (Some(c), ex / el, ey / el)
    } else {
        (None, ux, uy)
    };
    let head = 11.0;
    let base = (b2.0 - hx * head, b2.1 - hy * head);
    let dash = if retreat { r#" stroke-dasharray="10 4""# } else { "" };
    let d = match ctrl {
        Some(c) => format!(
            "M{},{} Q{},{} {},{}",
            fmt(a2.0),
            fmt(a2.1),
            fmt(c.0),
            fmt(c.1),
            fmt(base.0),
            fmt(base.1)
        ),
        None => format!("M{},{} L{},{}", fmt(a2.0), fmt(a2.1), fmt(base.0), fmt(base.1)),
    };
    let _ = write!(
        s,
        r#"<g{}><path d="{d}" stroke="{colour}" stroke-width="3.4"{dash}/><path d="M{},{} L{},{} L{},{} Z" fill="{colour}" stroke="none"/></g>"#,
        dim(ok),
        fmt(b2.0),
        fmt(b2.1),
        fmt(base.0 - hy * 6.0),
        fmt(base.1 + hx * 6.0),
        fmt(base.0 + hy * 6.0),
        fmt(base.1 - hx * 6.0),
    );
    if !ok {
        let m = match ctrl {
            Some(c) => (
                0.25 * a2.0 + 0.5 * c.0 + 0.25 * base.0,
                0.25 * a2.1 + 0.5 * c.1 + 0.25 * base.1,
            ),
            None => mid(a2, base),
        };
        cross(s, m, pal);
    }
}

/// A number for SVG: at most two decimals, no trailing zeros.
pub fn fmt(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        let s = format!("{r:.2}");
        s.trim_end_matches('0').to_string()
    }
}

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The most characters of a name drawn on a map: longer names (a file may
/// hold a name of 100,000 characters) are cut with `…`, so that laying out
/// the text stays quick.
const MAX_LABEL: usize = 40;

/// `text` cut to `max` characters, with `…` when cut.
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

fn title_case(abbr: &str) -> String {
    let mut c = abbr.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
