//! SVG to pixels with resvg, using only the bundled fonts (DejaVu Sans), so
//! that a picture is the same on every machine.

use std::sync::{Arc, OnceLock};

/// A problem turning a picture into pixels.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RasterError {
    #[error("the SVG could not be read: {0}")]
    Svg(String),
    #[error("the picture would be {0} × {1} pixels: too big or empty")]
    Size(u32, u32),
    #[error("PNG encoding failed: {0}")]
    Png(String),
    #[error("the picture cannot be read: {0}")]
    Picture(String),
}

static SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static SANS_BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// The font database: the bundled fonts and nothing from the system.
pub fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(SANS.to_vec());
        db.load_font_data(SANS_BOLD.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// The largest picture side drawn, in pixels.
pub const MAX_SIDE: u32 = 16_384;

/// Reads an SVG with the bundled fonts.
pub fn tree(svg: &str) -> Result<resvg::usvg::Tree, RasterError> {
    let opt = resvg::usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".into(),
        ..Default::default()
    };
    resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| RasterError::Svg(e.to_string()))
}

/// Draws an SVG into an RGBA pixmap of the size the SVG gives (its
/// `width` and `height`, which carry the scale).
pub fn pixmap(svg: &str) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    let tree = tree(svg)?;
    // The SVG's own width and height already include the scale; the view
    // box is drawn to fill them.
    let size = tree.size();
    let (w, h) = (size.width().ceil() as u32, size.height().ceil() as u32);
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(RasterError::Size(w, h));
    }
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pm.as_mut());
    Ok(pm)
}

/// Draws an SVG into PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    let pm = pixmap(svg)?;
    encode_png(&pm)
}

/// Draws an SVG into PNG bytes that tell their print resolution (`pHYs`).
pub fn png_at_dpi(svg: &str, dpi: f32) -> Result<Vec<u8>, RasterError> {
    let pm = pixmap(svg)?;
    encode_png_at_dpi(&pm, Some(dpi))
}

/// PNG bytes of a pixmap (fast compression; RGB when every pixel is
/// opaque, as maps are, else RGBA with straight alpha).
pub fn encode_png(pm: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, RasterError> {
    encode_png_at_dpi(pm, None)
}

/// PNG bytes of a pixmap that tell their print resolution (`pHYs`) when given.
pub fn encode_png_at_dpi(pm: &resvg::tiny_skia::Pixmap, dpi: Option<f32>) -> Result<Vec<u8>, RasterError> {
    let opaque = pm.data().chunks_exact(4).all(|p| p[3] == 255);
    let (colour, data) = if opaque {
        let rgb: Vec<u8> = pm.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        (png::ColorType::Rgb, rgb)
    } else {
        (png::ColorType::Rgba, demultiply(pm))
    };
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, pm.width(), pm.height());
        enc.set_color(colour);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        if let Some(dpi) = dpi.filter(|d| d.is_finite() && *d > 0.0) {
            let ppm = (dpi / 0.0254).round() as u32;
            enc.set_pixel_dims(Some(png::PixelDimensions {
                xppu: ppm,
                yppu: ppm,
                unit: png::Unit::Meter,
            }));
        }
        let mut w = enc.write_header().map_err(|e| RasterError::Png(e.to_string()))?;
        w.write_image_data(&data).map_err(|e| RasterError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// A Windows bitmap (24 bits, uncompressed, rows bottom-up, 4-byte aligned),
/// as DIP exported its map; transparent pixels come out on white. The
/// resolution, when given, is stored as pixels per metre.
pub fn encode_bmp(pm: &resvg::tiny_skia::Pixmap, dpi: Option<f32>) -> Vec<u8> {
    let (w, h) = (pm.width() as usize, pm.height() as usize);
    let row = (w * 3).div_ceil(4) * 4;
    let size = 54 + row * h;
    let ppm = dpi
        .filter(|d| d.is_finite() && *d > 0.0)
        .map(|d| (d / 0.0254).round() as u32)
        .unwrap_or(2835);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(w as i32).to_le_bytes());
    out.extend_from_slice(&(h as i32).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&((row * h) as u32).to_le_bytes());
    out.extend_from_slice(&ppm.to_le_bytes());
    out.extend_from_slice(&ppm.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    let px = pm.pixels();
    for y in (0..h).rev() {
        for p in &px[y * w..(y + 1) * w] {
            // Premultiplied colour over white.
            let a = 255 - p.alpha();
            out.extend_from_slice(&[
                p.blue().saturating_add(a),
                p.green().saturating_add(a),
                p.red().saturating_add(a),
            ]);
        }
        out.resize(out.len() + row - w * 3, 0);
    }
    out
}

/// RGBA with straight alpha (tiny-skia keeps it premultiplied).
pub fn demultiply(pm: &resvg::tiny_skia::Pixmap) -> Vec<u8> {
    pm.pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect()
}

/// Draws an SVG over the pixels of `pm` (same size as the SVG).
pub fn render_onto(svg: &str, pm: &mut resvg::tiny_skia::Pixmap) -> Result<(), RasterError> {
    let tree = tree(svg)?;
    resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pm.as_mut());
    Ok(())
}

/// Reads a PNG (any colour type, 8 or 16 bits) into a pixmap.
pub fn decode_png(bytes: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    let bad = |m: String| RasterError::Picture(format!("PNG: {m}"));
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut r = dec.read_info().map_err(|e| bad(e.to_string()))?;
    // The size the file claims is checked before anything is allocated: a
    // few bytes can claim 100000 × 100000 pixels.
    let (cw, ch) = (r.info().width, r.info().height);
    if cw == 0 || ch == 0 || cw > MAX_SIDE || ch > MAX_SIDE {
        return Err(RasterError::Size(cw, ch));
    }
    let size = r.output_buffer_size().ok_or_else(|| bad("too big".into()))?;
    let mut buf = vec![0; size];
    let info = r.next_frame(&mut buf).map_err(|e| bad(e.to_string()))?;
    let (w, h) = (info.width, info.height);
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(RasterError::Size(w, h));
    }
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    let px = |c: &[u8]| -> [u8; 4] {
        match info.color_type {
            png::ColorType::Grayscale => [c[0], c[0], c[0], 255],
            png::ColorType::GrayscaleAlpha => [c[0], c[0], c[0], c[1]],
            png::ColorType::Rgb => [c[0], c[1], c[2], 255],
            _ => [c[0], c[1], c[2], c[3]],
        }
    };
    let step = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        _ => 4,
    };
    let row = info.line_size;
    for (y, line) in buf.chunks(row).take(h as usize).enumerate() {
        for (x, c) in line.chunks_exact(step).take(w as usize).enumerate() {
            let [r, g, b, a] = px(c);
            let m = |v: u8| ((v as u32 * a as u32 + 127) / 255) as u8;
            let i = (y * w as usize + x) * 4;
            pm.data_mut()[i..i + 4].copy_from_slice(&[m(r), m(g), m(b), a]);
        }
    }
    Ok(pm)
}

/// Reads a map or unit picture, told apart by its first bytes: PNG, a
/// Windows BMP (as Realpolitik's and DipWork-era maps are), a Windows icon,
/// a TIF (DipWork's pictures) or a QuickDraw picture (PICT, the Mac
/// edition's maps; [`crate::pict`]).
pub fn decode_picture(bytes: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    if bytes.starts_with(b"BM") {
        decode_bmp(bytes)
    } else if bytes.starts_with(&[0, 0, 1, 0]) {
        decode_ico(bytes)
    } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        decode_tiff(bytes)
    } else if !bytes.starts_with(b"\x89PNG") && crate::pict::is_pict(bytes) {
        crate::pict::decode_pict(bytes)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        decode_png(bytes)
    } else {
        // Said as what it is not, not as a PNG gone wrong.
        Err(RasterError::Picture(
            "not a PNG, BMP, ICO, TIF or Mac PICT picture".into(),
        ))
    }
}

/// Reads a Windows BMP with the `image` crate: 1, 4, 8, 16, 24 or 32 bits
/// a pixel, uncompressed, bit fields or run-length coded (RLE8, RLE4, as
/// Realpolitik's maps often are), bottom-up or top-down.
pub fn decode_bmp(b: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    // The size the header claims, checked before anything is allocated.
    let field = |o: usize| b.get(o..o + 4).map(|s| i32::from_le_bytes([s[0], s[1], s[2], s[3]]));
    if let (Some(w), Some(h)) = (field(18), field(22)) {
        let (w, h) = (w.unsigned_abs(), h.unsigned_abs());
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
            return Err(RasterError::Size(w, h));
        }
    }
    decode_with(b, image::ImageFormat::Bmp, "BMP")
}

/// Reads a Windows icon (`.ico`, Realpolitik's unit icons) with the
/// `image` crate: its largest image, a PNG or a BMP whose AND mask (or, at
/// 32 bits, alpha) gives the transparent pixels.
pub fn decode_ico(b: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    decode_with(b, image::ImageFormat::Ico, "ICO")
}

/// A picture decoded by the `image` crate within dip's limits, as the
/// premultiplied pixels tiny-skia draws with.
fn decode_with(b: &[u8], format: image::ImageFormat, what: &str) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(b), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(1 << 30);
    reader.limits(limits);
    let img = reader
        .decode()
        .map_err(|e| RasterError::Picture(format!("{what}: {e}")))?
        .into_rgba8();
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(RasterError::Size(w, h));
    }
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    for (dst, src) in pm.data_mut().chunks_exact_mut(4).zip(img.as_raw().chunks_exact(4)) {
        let a = src[3] as u32;
        for k in 0..3 {
            dst[k] = ((src[k] as u32 * a + 127) / 255) as u8;
        }
        dst[3] = src[3];
    }
    Ok(pm)
}

/// Reads a TIF of the kinds DipWork's pictures are: uncompressed, PackBits
/// or LZW (with or without the horizontal predictor), one image in strips,
/// bilevel or grey (1, 4 or 8 bits), palette (4 or 8 bits) or RGB(A) (8
/// bits a sample), Intel or Motorola byte order. Hand-written because the
/// `image` crate's TIFF reader (the `tiff` crate, 0.11) refuses palette
/// and 4-bit pictures; LZW is the `weezl` crate's.
pub fn decode_tiff(b: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    let le = match b.get(0..4) {
        Some(b"II*\0") => true,
        Some(b"MM\0*") => false,
        _ => return Err(tiff_error("not a TIF file")),
    };
    let file = TiffFile { b, le };
    let tags = file.directory()?;
    let tif = TiffImage::of(&tags)?;
    let offsets = tags.get(273).ok_or_else(|| tiff_error("no strips"))?;
    let counts = tags.get(279).ok_or_else(|| tiff_error("no strip sizes"))?;
    let mut data = tif.strips(b, offsets, counts)?;
    if tif.predictor == 2 {
        tif.add_differences(&mut data);
    }
    tif.pixmap(&data, tags.get(320))
}

fn tiff_error(m: &str) -> RasterError {
    RasterError::Picture(format!("TIF: {m}"))
}

/// A TIF file's bytes, little-endian (`II`) or big-endian (`MM`).
struct TiffFile<'a> {
    b: &'a [u8],
    le: bool,
}

impl TiffFile<'_> {
    fn u16_at(&self, o: usize) -> Option<u16> {
        self.b.get(o..o + 2).map(|s| {
            if self.le {
                u16::from_le_bytes([s[0], s[1]])
            } else {
                u16::from_be_bytes([s[0], s[1]])
            }
        })
    }

    fn u32_at(&self, o: usize) -> Option<u32> {
        self.b.get(o..o + 4).map(|s| {
            let a = [s[0], s[1], s[2], s[3]];
            if self.le {
                u32::from_le_bytes(a)
            } else {
                u32::from_be_bytes(a)
            }
        })
    }

    /// The first image's directory: tag → its values (bytes, SHORT or
    /// LONG; others are not needed), at most 200 entries.
    fn directory(&self) -> Result<TiffTags, RasterError> {
        let ifd = self.u32_at(4).ok_or_else(|| tiff_error("truncated header"))? as usize;
        let n = self
            .u16_at(ifd)
            .ok_or_else(|| tiff_error("the directory lies beyond the end"))? as usize;
        let mut tags: Vec<(u16, Vec<u32>)> = Vec::new();
        for i in 0..n.min(200) {
            let e = ifd + 2 + i * 12;
            let (Some(tag), Some(ty), Some(count)) = (self.u16_at(e), self.u16_at(e + 2), self.u32_at(e + 4)) else {
                return Err(tiff_error("truncated directory"));
            };
            let size = match ty {
                1 | 2 | 6 | 7 => 1,
                3 | 8 => 2,
                4 | 9 => 4,
                _ => continue,
            };
            let count = count as usize;
            if count > 1 << 20 {
                return Err(tiff_error("a directory entry is too long"));
            }
            let at = if count * size <= 4 {
                e + 8
            } else {
                self.u32_at(e + 8).ok_or_else(|| tiff_error("truncated directory"))? as usize
            };
            let vals = (0..count)
                .map(|k| match size {
                    1 => self.b.get(at + k).map(|&v| v as u32),
                    2 => self.u16_at(at + k * 2).map(u32::from),
                    _ => self.u32_at(at + k * 4),
                })
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(|| tiff_error("a directory entry lies beyond the end"))?;
            tags.push((tag, vals));
        }
        Ok(TiffTags(tags))
    }
}

/// A TIF directory's tags and their values, in the file's order.
struct TiffTags(Vec<(u16, Vec<u32>)>);

impl TiffTags {
    fn get(&self, t: u16) -> Option<&[u32]> {
        self.0.iter().find(|(k, _)| *k == t).map(|(_, v)| v.as_slice())
    }

    /// A tag's first value, or `default`.
    fn one(&self, t: u16, default: u32) -> u32 {
        self.get(t).and_then(|v| v.first().copied()).unwrap_or(default)
    }
}

/// The image a TIF directory describes, of a kind that is read.
struct TiffImage {
    w: u32,
    h: u32,
    /// Bits per sample and samples per pixel.
    bps: usize,
    spp: usize,
    photometric: u32,
    compression: u32,
    predictor: u32,
}

impl TiffImage {
    /// The image of the directory's tags; an error for a size, a
    /// compression, predictor or sample layout that is not read.
    fn of(tags: &TiffTags) -> Result<TiffImage, RasterError> {
        let (w, h) = (tags.one(256, 0), tags.one(257, 0));
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
            return Err(RasterError::Size(w, h));
        }
        let bps = tags.one(258, 1) as usize;
        let spp = tags.one(277, 1) as usize;
        let photometric = tags.one(262, 1);
        let compression = tags.one(259, 1);
        if !matches!(compression, 1 | 5 | 32773) {
            return Err(tiff_error(&format!(
                "compression {compression} is not read (uncompressed, LZW and PackBits TIFs are)"
            )));
        }
        let predictor = tags.one(317, 1);
        if predictor != 1 && !(predictor == 2 && bps == 8) {
            return Err(tiff_error(&format!(
                "predictor {predictor} is not read (none, or horizontal differences of 8-bit samples)"
            )));
        }
        let ok = match photometric {
            0 | 1 => spp == 1 && matches!(bps, 1 | 4 | 8),
            3 => spp == 1 && matches!(bps, 4 | 8),
            2 => (spp == 3 || spp == 4) && bps == 8,
            _ => false,
        };
        if !ok {
            return Err(tiff_error(&format!(
                "{spp} samples of {bps} bits (photometric {photometric}) are not read"
            )));
        }
        Ok(TiffImage {
            w,
            h,
            bps,
            spp,
            photometric,
            compression,
            predictor,
        })
    }

    /// The bytes of a row of pixels.
    fn row(&self) -> usize {
        (self.w as usize * self.bps * self.spp).div_ceil(8)
    }

    /// The pixel data, strip by strip, decompressed as far as the image
    /// needs (at least its rows' bytes, or an error).
    fn strips(&self, b: &[u8], offsets: &[u32], counts: &[u32]) -> Result<Vec<u8>, RasterError> {
        let need = self.row() * self.h as usize;
        let mut data = Vec::with_capacity(need.min(b.len()));
        let mut lzw_out = Vec::new();
        for (&off, &len) in offsets.iter().zip(counts) {
            let strip = b
                .get(off as usize..(off as usize).saturating_add(len as usize))
                .ok_or_else(|| tiff_error("a strip lies beyond the end"))?;
            if self.compression == 1 {
                data.extend_from_slice(strip);
            } else if self.compression == 5 {
                lzw_strip(strip, need, &mut lzw_out, &mut data)?;
            } else {
                packbits_strip(strip, need, &mut data);
            }
            if data.len() >= need {
                break;
            }
        }
        if data.len() < need {
            return Err(tiff_error("the pixel data is cut short"));
        }
        Ok(data)
    }

    /// Predictor 2: each sample was stored as the difference from the one
    /// to its left.
    fn add_differences(&self, data: &mut [u8]) {
        let (row, spp) = (self.row(), self.spp);
        let need = row * self.h as usize;
        for line in data[..need].chunks_mut(row) {
            for i in spp..(self.w as usize * spp).min(line.len()) {
                line[i] = line[i].wrapping_add(line[i - spp]);
            }
        }
    }

    /// The pixels: grey (white or black is zero), a palette's colours
    /// (16-bit entries, red ones first) or RGB with or without alpha.
    fn pixmap(&self, data: &[u8], palette: Option<&[u32]>) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
        let TiffImage {
            w,
            h,
            bps,
            spp,
            photometric,
            ..
        } = *self;
        let row = self.row();
        let levels = (1usize << bps) - 1;
        let mut pm = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
        for y in 0..h as usize {
            let line = &data[y * row..(y + 1) * row];
            for x in 0..w as usize {
                let sample = |k: usize| -> usize {
                    let bit = (x * spp + k) * bps;
                    match bps {
                        8 => line[bit / 8] as usize,
                        _ => (line[bit / 8] as usize >> (8 - bps - bit % 8)) & levels,
                    }
                };
                let [r, g, bl, a] = match photometric {
                    0 | 1 => {
                        let mut v = (sample(0) * 255 / levels) as u8;
                        if photometric == 0 {
                            v = 255 - v;
                        }
                        [v, v, v, 255]
                    }
                    3 => {
                        let i = sample(0);
                        let c = |k: usize| {
                            palette
                                .and_then(|p| p.get(k * (levels + 1) + i))
                                .map_or(0, |&v| (v >> 8) as u8)
                        };
                        [c(0), c(1), c(2), 255]
                    }
                    _ => [
                        sample(0) as u8,
                        sample(1) as u8,
                        sample(2) as u8,
                        if spp == 4 { sample(3) as u8 } else { 255 },
                    ],
                };
                let m = |v: u8| ((v as u32 * a as u32 + 127) / 255) as u8;
                let i = (y * w as usize + x) * 4;
                pm.data_mut()[i..i + 4].copy_from_slice(&[m(r), m(g), m(bl), a]);
            }
        }
        Ok(pm)
    }
}

/// TIFF's LZW: codes high bit first, one bit wider a code early. The
/// strip is decoded only as far as the image needs (`need` bytes in
/// `data`); `out` is the decoder's buffer, kept from strip to strip.
fn lzw_strip(strip: &[u8], need: usize, out: &mut Vec<u8>, data: &mut Vec<u8>) -> Result<(), RasterError> {
    let mut dec = weezl::decode::Decoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8);
    if out.is_empty() {
        *out = vec![0u8; need.min(64 * 1024)];
    }
    let mut input = strip;
    // (The decoder may take input before it gives output: it is
    // called until it stops making progress.)
    while data.len() < need {
        let want = (need - data.len()).min(out.len());
        let r = dec.decode_bytes(input, &mut out[..want]);
        data.extend_from_slice(&out[..r.consumed_out]);
        input = &input[r.consumed_in..];
        match r.status {
            Ok(weezl::LzwStatus::Ok) if r.consumed_in + r.consumed_out > 0 => {}
            Ok(_) => break,
            Err(e) => return Err(tiff_error(&format!("a strip's LZW data is damaged: {e}"))),
        }
    }
    Ok(())
}

/// PackBits: n ≥ 0 copies n+1 bytes, n < 0 repeats the next 1−n times;
/// as far as the image needs (`need` bytes in `data`).
fn packbits_strip(strip: &[u8], need: usize, data: &mut Vec<u8>) {
    let mut i = 0;
    while i < strip.len() && data.len() < need {
        let n = strip[i] as i8;
        i += 1;
        if n >= 0 {
            let end = (i + n as usize + 1).min(strip.len());
            data.extend_from_slice(&strip[i..end]);
            i = end;
        } else if n != -128 {
            if let Some(&v) = strip.get(i) {
                data.extend(std::iter::repeat_n(v, 1 + (-(n as i32)) as usize));
            }
            i += 1;
        }
    }
}

/// Base64 (standard alphabet, padded), for pictures inside SVG.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if c.len() > 2 { A[n as usize & 63] as char } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    /// A bottom-up BMP of `w × h` pixels at `bpp` bits with the given rows
    /// (top row first) and palette.
    fn bmp(w: u32, h: u32, bpp: u16, palette: &[[u8; 3]], rows: &[Vec<u8>]) -> Vec<u8> {
        let stride = ((w as usize * bpp as usize).div_ceil(32)) * 4;
        let off = 14 + 40 + palette.len() * 4;
        let mut b = Vec::new();
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&((off + stride * h as usize) as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&(off as u32).to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&(w as i32).to_le_bytes());
        b.extend_from_slice(&(h as i32).to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&bpp.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes());
        b.extend_from_slice(&[0; 12]);
        b.extend_from_slice(&(palette.len() as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        for c in palette {
            b.extend_from_slice(&[c[2], c[1], c[0], 0]);
        }
        for r in rows.iter().rev() {
            let mut r = r.clone();
            r.resize(stride, 0);
            b.extend_from_slice(&r);
        }
        b
    }

    #[test]
    fn bmps_of_24_and_8_and_1_bits_are_read() {
        let px = |pm: &resvg::tiny_skia::Pixmap, x, y| {
            let p = pm.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        // 24 bits: BGR; rows stored bottom-up.
        let b = bmp(2, 2, 24, &[], &[vec![0, 0, 255, 0, 255, 0], vec![255, 0, 0, 9, 9, 9]]);
        let pm = decode_picture(&b).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 1, 0)), ((255, 0, 0), (0, 255, 0)));
        assert_eq!((px(&pm, 0, 1), px(&pm, 1, 1)), ((0, 0, 255), (9, 9, 9)));
        // 8 bits with a palette.
        let b = bmp(3, 1, 8, &[[10, 20, 30], [40, 50, 60]], &[vec![1, 0, 1]]);
        let pm = decode_picture(&b).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 1, 0)), ((40, 50, 60), (10, 20, 30)));
        // 1 bit: the high bit is the leftmost pixel.
        let b = bmp(3, 1, 1, &[[0, 0, 0], [255, 255, 255]], &[vec![0b1010_0000]]);
        let pm = decode_picture(&b).unwrap();
        assert_eq!(
            (px(&pm, 0, 0), px(&pm, 1, 0), px(&pm, 2, 0)),
            ((255, 255, 255), (0, 0, 0), (255, 255, 255))
        );
        // Cut short, and compressed: errors, no panic.
        assert!(decode_picture(&b[..b.len() - 2]).is_err());
        let mut rle = b.clone();
        rle[30] = 1;
        assert!(decode_picture(&rle).is_err(), "RLE8 at 1 bit a pixel is no BMP");
        assert!(decode_picture(b"BM").is_err());
    }

    /// An icon file with one `w × h` BMP image at `bpp` bits (rows top
    /// first) and its AND mask (rows top first, one bit a pixel).
    fn ico(w: u32, h: u32, bpp: u16, rows: &[Vec<u8>], mask: &[Vec<u8>]) -> Vec<u8> {
        let stride = ((w as usize * bpp as usize).div_ceil(32)) * 4;
        let mstride = (w as usize).div_ceil(32) * 4;
        let mut img = Vec::new();
        img.extend_from_slice(&40u32.to_le_bytes());
        img.extend_from_slice(&(w as i32).to_le_bytes());
        img.extend_from_slice(&(2 * h as i32).to_le_bytes());
        img.extend_from_slice(&1u16.to_le_bytes());
        img.extend_from_slice(&bpp.to_le_bytes());
        img.extend_from_slice(&[0; 24]);
        for r in rows.iter().rev() {
            let mut r = r.clone();
            r.resize(stride, 0);
            img.extend_from_slice(&r);
        }
        for r in mask.iter().rev() {
            let mut r = r.clone();
            r.resize(mstride, 0);
            img.extend_from_slice(&r);
        }
        let mut b = vec![0, 0, 1, 0, 1, 0, w as u8, h as u8, 0, 0, 1, 0];
        b.extend_from_slice(&bpp.to_le_bytes());
        b.extend_from_slice(&(img.len() as u32).to_le_bytes());
        b.extend_from_slice(&22u32.to_le_bytes());
        b.extend_from_slice(&img);
        b
    }

    #[test]
    fn icons_are_read_with_their_transparency() {
        let px = |pm: &resvg::tiny_skia::Pixmap, x, y| {
            let p = pm.pixel(x, y).unwrap().demultiply();
            (p.red(), p.green(), p.blue(), p.alpha())
        };
        // 24 bits, BGR; the mask's set bit (top right) is transparent.
        let b = ico(
            2,
            2,
            24,
            &[vec![0, 0, 255, 0, 255, 0], vec![255, 0, 0, 9, 9, 9]],
            &[vec![0b0100_0000], vec![0]],
        );
        let pm = decode_picture(&b).unwrap();
        assert_eq!((pm.width(), pm.height()), (2, 2));
        assert_eq!(px(&pm, 0, 0), (255, 0, 0, 255));
        assert_eq!(px(&pm, 1, 0).3, 0);
        assert_eq!((px(&pm, 0, 1), px(&pm, 1, 1)), ((0, 0, 255, 255), (9, 9, 9, 255)));
        // 32 bits: the alpha byte.
        let b = ico(1, 1, 32, &[vec![10, 20, 30, 0]], &[vec![0]]);
        assert_eq!(px(&decode_ico(&b).unwrap(), 0, 0).3, 0);
        let b = ico(1, 1, 32, &[vec![10, 20, 30, 255]], &[vec![0]]);
        assert_eq!(px(&decode_ico(&b).unwrap(), 0, 0), (30, 20, 10, 255));
        // A PNG inside.
        // (An icon's PNG is RGBA, as the format has it: one pixel transparent.)
        let mut pm = resvg::tiny_skia::Pixmap::new(3, 2).unwrap();
        pm.fill(resvg::tiny_skia::Color::from_rgba8(1, 2, 3, 255));
        pm.pixels_mut()[5] = resvg::tiny_skia::ColorU8::from_rgba(0, 0, 0, 0).premultiply();
        let png = encode_png(&pm).unwrap();
        let mut b = vec![0, 0, 1, 0, 1, 0, 3, 2, 0, 0, 1, 0, 32, 0];
        b.extend_from_slice(&(png.len() as u32).to_le_bytes());
        b.extend_from_slice(&22u32.to_le_bytes());
        b.extend_from_slice(&png);
        assert_eq!(decode_picture(&b).unwrap().data(), pm.data());
        // Cut short or empty: errors, no panic.
        for n in 0..b.len() {
            let _ = decode_ico(&b[..n]);
        }
        assert!(decode_ico(&[0, 0, 1, 0, 0, 0]).is_err());
        let good = ico(2, 2, 24, &[vec![0; 6], vec![0; 6]], &[vec![0], vec![0]]);
        for n in 0..good.len() {
            let _ = decode_ico(&good[..n]);
        }
    }

    /// A TIF with one strip: `entries` (tag, type, values) and the pixel bytes.
    fn tif(le: bool, entries: &[(u16, u16, Vec<u32>)], pixels: &[u8]) -> Vec<u8> {
        let w16 = |v: u16| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        let w32 = |v: u32| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        let mut b: Vec<u8> = if le { b"II*\0".to_vec() } else { b"MM\0*".to_vec() };
        b.extend_from_slice(&w32(8));
        let n = entries.len() + 2;
        let ifd_len = 2 + n * 12 + 4;
        let mut extra: Vec<u8> = Vec::new();
        let pix_at = 8 + ifd_len;
        let mut all = entries.to_vec();
        all.push((273, 4, vec![pix_at as u32]));
        all.push((279, 4, vec![pixels.len() as u32]));
        all.sort_by_key(|e| e.0);
        b.extend_from_slice(&w16(n as u16));
        for (tag, ty, vals) in &all {
            b.extend_from_slice(&w16(*tag));
            b.extend_from_slice(&w16(*ty));
            b.extend_from_slice(&w32(vals.len() as u32));
            let bytes: Vec<u8> = vals
                .iter()
                .flat_map(|&v| {
                    if *ty == 3 {
                        w16(v as u16).to_vec()
                    } else {
                        w32(v).to_vec()
                    }
                })
                .collect();
            if bytes.len() <= 4 {
                let mut v = bytes.clone();
                v.resize(4, 0);
                b.extend_from_slice(&v);
            } else {
                b.extend_from_slice(&w32((pix_at + pixels.len() + extra.len()) as u32));
                extra.extend_from_slice(&bytes);
            }
        }
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(pixels);
        b.extend_from_slice(&extra);
        b
    }

    #[test]
    fn tifs_of_dipworks_kinds_are_read() {
        let px = |pm: &resvg::tiny_skia::Pixmap, x, y| {
            let p = pm.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        // RGB, Intel order, 2 × 1.
        let rgb = [
            (256, 3, vec![2]),
            (257, 3, vec![1]),
            (258, 3, vec![8, 8, 8]),
            (262, 3, vec![2]),
            (277, 3, vec![3]),
        ];
        let b = tif(true, &rgb, &[255, 0, 0, 0, 0, 255]);
        let pm = decode_picture(&b).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 1, 0)), ((255, 0, 0), (0, 0, 255)));
        // The same in Motorola order.
        let pm = decode_picture(&tif(false, &rgb, &[255, 0, 0, 0, 0, 255])).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 1, 0)), ((255, 0, 0), (0, 0, 255)));
        // Bilevel, white is zero (1 = black), 3 × 2: rows are byte-aligned.
        let bw = [
            (256, 3, vec![3]),
            (257, 3, vec![2]),
            (258, 3, vec![1]),
            (262, 3, vec![0]),
        ];
        let pm = decode_picture(&tif(true, &bw, &[0b1010_0000, 0b0100_0000])).unwrap();
        assert_eq!(
            (px(&pm, 0, 0), px(&pm, 1, 0), px(&pm, 1, 1)),
            ((0, 0, 0), (255, 255, 255), (0, 0, 0))
        );
        // Palette of 4 bits (16 entries a channel, 16-bit values).
        let mut map = vec![0u32; 48];
        map[1] = 0xff00; // red of colour 1
        map[16 + 2] = 0x8000; // green of colour 2
        let pal = [
            (256, 3, vec![2]),
            (257, 3, vec![1]),
            (258, 3, vec![4]),
            (262, 3, vec![3]),
            (320, 3, map),
        ];
        let pm = decode_picture(&tif(true, &pal, &[0x12])).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 1, 0)), ((255, 0, 0), (0, 128, 0)));
        // PackBits: 4 grey pixels as "repeat 200 three times, copy 9".
        let grey = [
            (256, 3, vec![4]),
            (257, 3, vec![1]),
            (258, 3, vec![8]),
            (259, 3, vec![32773]),
        ];
        let pm = decode_picture(&tif(true, &grey, &[0xfe, 200, 0, 9])).unwrap();
        assert_eq!((px(&pm, 2, 0), px(&pm, 3, 0)), ((200, 200, 200), (9, 9, 9)));
        // Compressed otherwise (Deflate), cut short, or nonsense: errors, no panic.
        let deflate = [(256, 3, vec![1]), (257, 3, vec![1]), (259, 3, vec![8])];
        assert!(decode_tiff(&tif(true, &deflate, &[0]))
            .unwrap_err()
            .to_string()
            .contains("compression 8 is not read"));
        let good = tif(true, &rgb, &[255, 0, 0, 0, 0, 255]);
        for n in 0..good.len() {
            let _ = decode_tiff(&good[..n]);
        }
        assert!(decode_tiff(&good[..good.len() - 1]).is_err());
    }

    /// TIF's LZW, as Windows paint programs of DipWork's time saved:
    /// "only uncompressed and PackBits TIFs are read".
    #[test]
    fn lzw_tifs_were_refused() {
        let lzw = |data: &[u8]| {
            weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8)
                .encode(data)
                .unwrap()
        };
        let px = |pm: &resvg::tiny_skia::Pixmap, x, y| {
            let p = pm.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        // 8-bit palette, 3 × 2, in Motorola order.
        let mut map = vec![0u32; 768];
        map[1] = 0xff00;
        map[256 + 2] = 0x8000;
        let pal = [
            (256, 3, vec![3]),
            (257, 3, vec![2]),
            (258, 3, vec![8]),
            (259, 3, vec![5]),
            (262, 3, vec![3]),
            (320, 3, map),
        ];
        let pm = decode_picture(&tif(false, &pal, &lzw(&[1, 2, 0, 2, 2, 1]))).unwrap();
        assert_eq!(
            (px(&pm, 0, 0), px(&pm, 1, 0), px(&pm, 2, 0)),
            ((255, 0, 0), (0, 128, 0), (0, 0, 0))
        );
        assert_eq!(px(&pm, 2, 1), (255, 0, 0));
        // RGB with the horizontal predictor: each sample the difference
        // from the one to its left.
        let rgb = [
            (256, 3, vec![2]),
            (257, 3, vec![1]),
            (258, 3, vec![8, 8, 8]),
            (259, 3, vec![5]),
            (262, 3, vec![2]),
            (277, 3, vec![3]),
            (317, 3, vec![2]),
        ];
        let diff = [200u8, 10, 30, 250, 100, 1]; // (200,10,30) then (194,110,31)
        let pm = decode_picture(&tif(true, &rgb, &lzw(&diff))).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 1, 0)), ((200, 10, 30), (194, 110, 31)));
        // Bilevel, two bytes: the decoder takes all the input before it
        // gives any output.
        let bw = [
            (256, 3, vec![4]),
            (257, 3, vec![2]),
            (258, 3, vec![1]),
            (259, 3, vec![5]),
        ];
        let pm = decode_picture(&tif(true, &bw, &lzw(&[0b1010_0000, 0b0101_0000]))).unwrap();
        assert_eq!((px(&pm, 0, 0), px(&pm, 0, 1)), ((255, 255, 255), (0, 0, 0)));
        // Damaged or cut short: errors, no panic.
        let good = tif(true, &rgb, &lzw(&diff));
        for n in 0..good.len() {
            let _ = decode_tiff(&good[..n]);
        }
        let mut bad = tif(true, &rgb, &[0xff; 8]);
        assert!(decode_tiff(&bad).is_err());
        bad = tif(true, &rgb, &lzw(&diff[..3]));
        assert!(decode_tiff(&bad).unwrap_err().to_string().contains("cut short"));
    }

    /// A BMP header for run-length data (compression 1: RLE8, 2: RLE4).
    fn rle_bmp(w: i32, h: i32, bpp: u16, comp: u32, palette: &[[u8; 3]], data: &[u8]) -> Vec<u8> {
        let off = 54 + palette.len() * 4;
        let mut b = Vec::new();
        b.extend_from_slice(b"BM");
        b.extend_from_slice(&((off + data.len()) as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&(off as u32).to_le_bytes());
        b.extend_from_slice(&40u32.to_le_bytes());
        b.extend_from_slice(&w.to_le_bytes());
        b.extend_from_slice(&h.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&bpp.to_le_bytes());
        b.extend_from_slice(&comp.to_le_bytes());
        b.extend_from_slice(&(data.len() as u32).to_le_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&(palette.len() as u32).to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        for c in palette {
            b.extend_from_slice(&[c[2], c[1], c[0], 0]);
        }
        b.extend_from_slice(data);
        b
    }

    /// Realpolitik's maps often come RLE-compressed; they were refused.
    #[test]
    fn rle8_and_rle4_bmps_are_read() {
        let pal = [[255, 255, 255], [200, 0, 0], [0, 0, 200]];
        let row = |pm: &resvg::tiny_skia::Pixmap, y: usize| -> Vec<u8> {
            (0..4)
                .map(|x| {
                    // 9: a pixel the data skips (the format leaves it
                    // undefined; the `image` crate makes it black).
                    let p = pm.pixels()[y * 4 + x].demultiply();
                    if p.alpha() == 0 || [p.red(), p.green(), p.blue()] == [0, 0, 0] {
                        return 9;
                    }
                    pal.iter()
                        .position(|c| *c == [p.red(), p.green(), p.blue()])
                        .unwrap_or_else(|| panic!("{p:?} at {x},{y}")) as u8
                })
                .collect()
        };
        // RLE8, 4 × 2: bottom row a literal 2,0,1 (padded) then a run of
        // one 2; the top row mostly skipped by a delta, so it stays 0 but
        // for its last pixel.
        let data = [0, 3, 2, 0, 1, 0, 1, 2, 0, 0, 0, 2, 3, 0, 1, 2, 0, 1];
        let pm = decode_bmp(&rle_bmp(4, 2, 8, 1, &pal, &data)).unwrap();
        assert_eq!(row(&pm, 1), [2, 0, 1, 2]);
        assert_eq!(row(&pm, 0), [9, 9, 9, 2]);
        // RLE4: a run of 4 alternating 1/2, then a literal 2,1,0 (3 nibbles).
        let data = [4, 0x12, 0, 0, 0, 3, 0x21, 0x00, 0, 1];
        let pm = decode_bmp(&rle_bmp(4, 2, 4, 2, &pal, &data)).unwrap();
        assert_eq!(row(&pm, 1), [1, 2, 1, 2]);
        assert_eq!(row(&pm, 0), [2, 1, 0, 9]);
        // Cut short: an error, no panic.
        assert!(decode_bmp(&rle_bmp(4, 2, 8, 1, &pal, &[2, 1, 0])).is_err());
    }

    #[test]
    fn a_bmp_written_reads_back_with_the_same_pixels() {
        // 3 × 2 pixels: the rows need padding, one pixel is transparent.
        let mut pm = resvg::tiny_skia::Pixmap::new(3, 2).unwrap();
        let colours = [
            [200u8, 10, 30, 255],
            [0, 128, 255, 255],
            [1, 2, 3, 255],
            [9, 99, 199, 255],
            [255, 255, 0, 255],
        ];
        for (i, c) in colours.iter().enumerate() {
            pm.pixels_mut()[i] = resvg::tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], c[3]).premultiply();
        }
        let bmp = encode_bmp(&pm, Some(96.0));
        assert_eq!(bmp.len(), 54 + 12 * 2);
        let back = decode_bmp(&bmp).unwrap();
        assert_eq!((back.width(), back.height()), (3, 2));
        for (i, c) in colours.iter().enumerate() {
            let p = back.pixels()[i].demultiply();
            assert_eq!([p.red(), p.green(), p.blue()], [c[0], c[1], c[2]], "pixel {i}");
        }
        let white = back.pixels()[5].demultiply();
        assert_eq!([white.red(), white.green(), white.blue()], [255, 255, 255]);
    }

    #[test]
    fn a_png_round_trips_through_a_pixmap() {
        let mut pm = resvg::tiny_skia::Pixmap::new(3, 2).unwrap();
        pm.fill(resvg::tiny_skia::Color::from_rgba8(10, 200, 30, 255));
        let back = decode_png(&encode_png(&pm).unwrap()).unwrap();
        assert_eq!(back.data(), pm.data());
        assert!(decode_png(b"not a png").is_err());
    }

    #[test]
    fn an_unknown_picture_format_was_called_a_bad_png() {
        let e = decode_picture(b"GIF89a and the rest").unwrap_err().to_string();
        assert!(e.contains("not a PNG, BMP, ICO, TIF or Mac PICT picture"), "{e}");
        assert!(!e.contains("PNG:"), "{e}");
    }
}
