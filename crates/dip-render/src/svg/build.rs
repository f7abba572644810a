//! Making a picture: its points from the shapes, a background map under
//! everything, and the pixels of its base drawn once for PNGs.

use super::*;

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
}
