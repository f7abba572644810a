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
    #[error("the map picture is not a readable PNG: {0}")]
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
    let bad = RasterError::Picture;
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut r = dec.read_info().map_err(|e| bad(e.to_string()))?;
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

/// Reads a map picture: PNG, or an uncompressed Windows BMP (1, 4, 8, 24
/// or 32 bits a pixel, as Realpolitik's and DipWork-era maps are).
pub fn decode_picture(bytes: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    if bytes.starts_with(b"BM") {
        decode_bmp(bytes)
    } else {
        decode_png(bytes)
    }
}

/// Reads an uncompressed BMP (`BI_RGB`, or `BI_BITFIELDS` in the usual
/// BGRA order), bottom-up or top-down.
pub fn decode_bmp(b: &[u8]) -> Result<resvg::tiny_skia::Pixmap, RasterError> {
    let bad = |m: &str| RasterError::Picture(format!("BMP: {m}"));
    let u16_at = |o: usize| b.get(o..o + 2).map(|s| u16::from_le_bytes([s[0], s[1]]));
    let u32_at = |o: usize| b.get(o..o + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
    let data_off = u32_at(10).ok_or_else(|| bad("truncated header"))? as usize;
    let hdr = u32_at(14).ok_or_else(|| bad("truncated header"))? as usize;
    let w = u32_at(18).ok_or_else(|| bad("truncated header"))? as i32;
    let h = u32_at(22).ok_or_else(|| bad("truncated header"))? as i32;
    let bpp = u16_at(28).ok_or_else(|| bad("truncated header"))?;
    let comp = u32_at(30).ok_or_else(|| bad("truncated header"))?;
    if comp != 0 && !(comp == 3 && bpp == 32) {
        return Err(bad("compressed BMPs are not read; save it uncompressed"));
    }
    let (w, top_down, h) = (w.unsigned_abs(), h < 0, h.unsigned_abs());
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(RasterError::Size(w, h));
    }
    let colours = match u32_at(46) {
        Some(0) | None => 1usize << bpp.min(8),
        Some(n) => n as usize,
    };
    let palette: Vec<[u8; 3]> = (0..colours)
        .filter_map(|i| {
            b.get(14 + hdr + i * 4..14 + hdr + i * 4 + 3)
                .map(|c| [c[2], c[1], c[0]])
        })
        .collect();
    let stride = ((w as usize * bpp as usize).div_ceil(32)) * 4;
    if !matches!(bpp, 1 | 4 | 8 | 24 | 32) {
        return Err(bad(&format!("{bpp} bits a pixel are not read")));
    }
    if b.len() < data_off + stride * h as usize {
        return Err(bad("the pixel data is cut short"));
    }
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    for y in 0..h as usize {
        let src_row = if top_down { y } else { h as usize - 1 - y };
        let row = &b[data_off + src_row * stride..data_off + (src_row + 1) * stride];
        for x in 0..w as usize {
            let rgb = match bpp {
                24 => [row[x * 3 + 2], row[x * 3 + 1], row[x * 3]],
                32 => [row[x * 4 + 2], row[x * 4 + 1], row[x * 4]],
                _ => {
                    let bits = bpp as usize;
                    let byte = row[x * bits / 8];
                    let shift = 8 - bits - (x * bits % 8);
                    let idx = (byte >> shift) as usize & ((1 << bits) - 1);
                    palette.get(idx).copied().unwrap_or([0, 0, 0])
                }
            };
            let i = (y * w as usize + x) * 4;
            pm.data_mut()[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    Ok(pm)
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
        assert!(decode_picture(&rle).unwrap_err().to_string().contains("compressed"));
        assert!(decode_picture(b"BM").is_err());
    }

    #[test]
    fn a_png_round_trips_through_a_pixmap() {
        let mut pm = resvg::tiny_skia::Pixmap::new(3, 2).unwrap();
        pm.fill(resvg::tiny_skia::Color::from_rgba8(10, 200, 30, 255));
        let back = decode_png(&encode_png(&pm).unwrap()).unwrap();
        assert_eq!(back.data(), pm.data());
        assert!(decode_png(b"not a png").is_err());
    }
}
