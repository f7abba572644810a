//! QuickDraw pictures (PICT), the form of the Mac edition's map pictures
//! (Realpolitik's ColorMap and BWMap). No maintained Rust crate reads them;
//! this reader draws what map pictures are made of, their bitmaps, and
//! skips everything else by its documented length (Inside Macintosh:
//! Imaging With QuickDraw, appendix A, "Picture Opcodes").
//!
//! - A file may start with the 512-byte header of a PICT file, or be the
//!   bare picture (a `PICT` resource): `picSize`, `picFrame`, then the
//!   version opcode (`0x11 0x01`: version 1, one-byte opcodes; `0x0011
//!   0x02FF`: version 2, two-byte opcodes on even offsets).
//! - Drawn: BitsRect, BitsRgn, PackBitsRect, PackBitsRgn (1-bit bitmaps;
//!   1, 2, 4 and 8-bit pixel maps with their colour table), DirectBitsRect
//!   and DirectBitsRgn (16 and 32-bit pixels, pack types 0 to 4), each
//!   copied from its source rectangle into its destination rectangle, the
//!   `…Rgn` forms through their mask region. Transfer modes are not
//!   applied: every bitmap is copied.
//! - Skipped: clipping regions, pen and text settings, comments, lines,
//!   shapes, text, patterns and reserved opcodes. An opcode version 1 does
//!   not define is refused, naming it and its offset.
//! - Coordinates are the picture frame's, or those of the source rectangle
//!   of an extended version 2 header (a picture made at another resolution
//!   than 72 dpi); where a bitmap has more pixels than its place in them (a
//!   300-dpi scan placed at 72 dpi), the canvas is widened by that ratio so
//!   that no pixel is lost. What no bitmap covers stays transparent, as
//!   DrawPicture leaves it.
//! - The file is read twice: once to check it whole and size the canvas,
//!   then to draw; nothing is allocated for a file that is cut short, and
//!   every size is checked against [`MAX_SIDE`] first.

use crate::raster::{RasterError, MAX_SIDE};
use resvg::tiny_skia::Pixmap;

/// Whether `b` looks like a QuickDraw picture, with or without the
/// 512-byte file header.
pub fn is_pict(b: &[u8]) -> bool {
    start(b).is_some()
}

/// Reads a QuickDraw picture's bitmaps into pixels.
pub fn decode_pict(b: &[u8]) -> Result<Pixmap, RasterError> {
    let (at, _) = start(b).ok_or_else(|| bad(0, "not a QuickDraw picture (no version opcode at offset 10 or 522)"))?;
    let found = walk(b, None)?;
    // The bitmap that covers most of the frame sets the resolution.
    let Some(main) = found
        .blits
        .iter()
        .max_by_key(|(_, d)| d.width() as i64 * d.height() as i64)
    else {
        return Err(match found.quicktime {
            Some(q) => bad(
                q,
                "the image is QuickTime-compressed (opcode 0x8200), which dip does not read; the picture has no bitmap",
            ),
            None => bad(
                at,
                "the picture has no bitmap (dip draws a picture's bitmaps; its lines, shapes and text are skipped)",
            ),
        });
    };
    let ratio = |s: i32, d: i32| if d > 0 && s > d { s as f64 / d as f64 } else { 1.0 };
    let (sx, sy) = (
        ratio(main.0.width(), main.1.width()),
        ratio(main.0.height(), main.1.height()),
    );
    let (fw, fh) = (found.frame.width() as f64 * sx, found.frame.height() as f64 * sy);
    if fw > MAX_SIDE as f64 || fh > MAX_SIDE as f64 {
        return Err(RasterError::Size(fw.ceil() as u32, fh.ceil() as u32));
    }
    let (w, h) = (fw.round().max(1.0) as u32, fh.round().max(1.0) as u32);
    // A few bytes of bitmap can be stretched over the whole canvas, again
    // and again: the pixels drawn in all are limited to four canvases of
    // the largest size (a map picture draws its canvas once).
    let drawn: f64 = found
        .blits
        .iter()
        .map(|(_, d)| (d.width().max(0) as f64 * sx).min(w as f64) * (d.height().max(0) as f64 * sy).min(h as f64))
        .sum();
    if drawn > 4.0 * (MAX_SIDE as f64).powi(2) {
        return Err(bad(
            at,
            &format!("its bitmaps would draw {drawn:.0} pixels, more than four pictures of the largest size"),
        ));
    }
    let pm = Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    let mut canvas = Canvas {
        pm,
        frame: found.frame,
        sx,
        sy,
    };
    walk(b, Some(&mut canvas))?;
    Ok(canvas.pm)
}

fn bad(at: usize, msg: &str) -> RasterError {
    RasterError::Picture(format!("PICT at offset {at}: {msg}"))
}

/// Where the picture starts (0, or 512 after the file header) and its
/// version.
fn start(b: &[u8]) -> Option<(usize, u8)> {
    let v2 = |s: usize| b.get(s + 10..s + 14) == Some(&[0x00, 0x11, 0x02, 0xFF][..]);
    let v1 = |s: usize| b.get(s + 10..s + 12) == Some(&[0x11, 0x01][..]);
    [0, 512]
        .into_iter()
        .find(|&s| v2(s))
        .map(|s| (s, 2))
        .or_else(|| [0, 512].into_iter().find(|&s| v1(s)).map(|s| (s, 1)))
}

/// QuickDraw's rectangle: top, left, bottom, right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    top: i32,
    left: i32,
    bottom: i32,
    right: i32,
}

impl Rect {
    fn width(&self) -> i32 {
        self.right - self.left
    }
    fn height(&self) -> i32 {
        self.bottom - self.top
    }
    fn contains(&self, x: i32, y: i32) -> bool {
        (self.left..self.right).contains(&x) && (self.top..self.bottom).contains(&y)
    }
}

/// Big-endian fields read with their offset in every error.
struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], RasterError> {
        let left = self.b.len().saturating_sub(self.pos);
        if n > left {
            return Err(bad(
                self.pos,
                &format!("the file is cut short in {what} ({n} bytes needed, {left} left)"),
            ));
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u8(&mut self, what: &str) -> Result<u8, RasterError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, RasterError> {
        let s = self.take(2, what)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, RasterError> {
        let s = self.take(4, what)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn rect(&mut self, what: &str) -> Result<Rect, RasterError> {
        let s = self.take(8, what)?;
        let v = |i: usize| i16::from_be_bytes([s[i], s[i + 1]]) as i32;
        Ok(Rect {
            top: v(0),
            left: v(2),
            bottom: v(4),
            right: v(6),
        })
    }
}

/// What the first reading found: the frame, each bitmap's source and
/// destination rectangle, and where a QuickTime image was.
struct Found {
    frame: Rect,
    blits: Vec<(Rect, Rect)>,
    quicktime: Option<usize>,
}

/// The pixels drawn into, in frame coordinates times `sx`, `sy`.
struct Canvas {
    pm: Pixmap,
    frame: Rect,
    sx: f64,
    sy: f64,
}

/// How an opcode's data is laid out (appendix A's table of sizes).
enum Op {
    End,
    Fixed(usize),
    /// A region or polygon: its size word counts itself.
    Sized,
    /// Text: this many bytes, then a count byte and the characters.
    Text(usize),
    Len16,
    Len32,
    LongComment,
    PixPat,
    Bits,
    QuickTime,
    Unknown,
}

fn op_kind(op: u16, version: u8) -> Op {
    use Op::*;
    // Version 1 knows fewer opcodes (appendix A, table A-3), one byte each.
    let in_v1 = matches!(op, 0x00..=0x11 | 0x20..=0x23 | 0x28..=0x2B | 0x30..=0x91 | 0x98 | 0x99 | 0xA0 | 0xA1 | 0xFF);
    if version == 1 && !in_v1 {
        return Unknown;
    }
    match op {
        0x00 | 0x1C | 0x1E | 0x38..=0x3F | 0x48..=0x4F | 0x58..=0x5F | 0x78..=0x7F | 0x88..=0x8F => Fixed(0),
        0x01 | 0x70..=0x77 | 0x80..=0x87 => Sized,
        0x02 | 0x09 | 0x0A | 0x10 | 0x20 | 0x30..=0x37 | 0x40..=0x47 | 0x50..=0x57 => Fixed(8),
        0x03 | 0x05 | 0x08 | 0x0D | 0x15 | 0x16 | 0x23 | 0xA0 => Fixed(2),
        0x04 => Fixed(1),
        0x06 | 0x07 | 0x0B | 0x0C | 0x0E | 0x0F | 0x21 | 0x68..=0x6F => Fixed(4),
        0x11 if version == 1 => Fixed(1),
        0x11 => Fixed(2),
        0x12..=0x14 => PixPat,
        0x1A | 0x1B | 0x1D | 0x1F | 0x22 => Fixed(6),
        0x28 => Text(4),
        0x29 | 0x2A => Text(1),
        0x2B => Text(2),
        0x24..=0x27 | 0x2C..=0x2F | 0x92..=0x97 | 0x9C..=0x9F | 0xA2..=0xAF => Len16,
        0x60..=0x67 => Fixed(12),
        0x90 | 0x91 | 0x98..=0x9B => Bits,
        0xA1 => LongComment,
        0xB0..=0xCF => Fixed(0),
        0xD0..=0xFE => Len32,
        0xFF => End,
        0x0100..=0x7FFF => Fixed(2 * (op >> 8) as usize),
        0x8000..=0x80FF => Fixed(0),
        0x8200 | 0x8201 => QuickTime,
        0x8100..=0xFFFF => Len32,
        // 0x0017–0x0019: reserved, with no size given.
        _ => Unknown,
    }
}

/// The picture's frame, after its size: the rectangle its opcodes'
/// coordinates are in, checked to be a size that can be drawn.
fn picture_frame(r: &mut Reader, version: u8) -> Result<Rect, RasterError> {
    let b = r.b;
    r.u16("the picture size")?;
    let mut frame_at = r.pos;
    let mut frame = r.rect("the picture frame")?;
    r.pos += if version == 2 { 4 } else { 2 };
    // An extended version 2 header (OpenCPicture's, version −2) gives the
    // rectangle the opcodes' coordinates are in, at the picture's own
    // resolution; the frame is that rectangle at 72 dpi.
    if version == 2 && b.get(r.pos..r.pos + 4) == Some(&[0x0C, 0x00, 0xFF, 0xFE][..]) {
        let mut h = Reader { b, pos: r.pos + 14 };
        let at = h.pos;
        let src = h.rect("the header's source rectangle")?;
        if src.width() > 0 && src.height() > 0 {
            (frame, frame_at) = (src, at);
        }
    }
    let (w, h) = (frame.width(), frame.height());
    if w <= 0 || h <= 0 || w > MAX_SIDE as i32 || h > MAX_SIDE as i32 {
        return Err(bad(
            frame_at,
            &format!("a picture frame of {w} × {h} points: too big or empty"),
        ));
    }
    Ok(frame)
}

/// Reads the picture's opcodes, drawing its bitmaps into `canvas` when
/// given.
fn walk(b: &[u8], mut canvas: Option<&mut Canvas>) -> Result<Found, RasterError> {
    let (start, version) = start(b).ok_or_else(|| bad(0, "not a QuickDraw picture"))?;
    let mut r = Reader { b, pos: start };
    let frame = picture_frame(&mut r, version)?;
    let mut found = Found {
        frame,
        blits: Vec::new(),
        quicktime: None,
    };
    loop {
        // Version 2 opcodes start on even offsets.
        if version == 2 && (r.pos - start) % 2 == 1 {
            r.pos += 1;
        }
        let at = r.pos;
        let op = if version == 2 {
            r.u16("an opcode (the end-of-picture opcode 0x00FF is missing)")?
        } else {
            r.u8("an opcode (the end-of-picture opcode 0xFF is missing)")? as u16
        };
        match op_kind(op, version) {
            Op::End => return Ok(found),
            Op::Fixed(n) => {
                r.take(n, &format!("opcode {op:#06x}"))?;
            }
            Op::Sized => {
                let size = r.u16("a region or polygon")? as usize;
                if size < 10 {
                    return Err(bad(
                        at,
                        &format!("opcode {op:#06x}: a region or polygon of {size} bytes"),
                    ));
                }
                r.take(size - 2, "a region or polygon")?;
            }
            Op::Text(n) => {
                r.take(n, "text")?;
                let count = r.u8("text")? as usize;
                r.take(count, "text")?;
            }
            Op::Len16 => {
                let n = r.u16("an opcode's data length")? as usize;
                r.take(n, &format!("opcode {op:#06x}"))?;
            }
            Op::Len32 => {
                let n = r.u32("an opcode's data length")? as usize;
                r.take(n, &format!("opcode {op:#06x}"))?;
            }
            Op::QuickTime => {
                found.quicktime.get_or_insert(at);
                let n = r.u32("a QuickTime image's length")? as usize;
                r.take(n, "a QuickTime image")?;
            }
            Op::LongComment => {
                r.u16("a comment")?;
                let n = r.u16("a comment")? as usize;
                r.take(n, "a comment")?;
            }
            Op::PixPat => skip_pixpat(&mut r)?,
            Op::Bits => {
                let bm = Bitmap::read(&mut r, op, at)?;
                match canvas.as_deref_mut() {
                    Some(c) => bm.draw(&mut r, c)?,
                    None => bm.rows(&mut r, |_, _| {})?,
                }
                found.blits.push((bm.src, bm.dst));
            }
            Op::Unknown => {
                let name = if version == 2 {
                    format!("{op:#06x}")
                } else {
                    format!("{op:#04x}")
                };
                return Err(bad(
                    at,
                    &format!("opcode {name} is not defined for a version {version} picture (its size is unknown)"),
                ));
            }
        }
    }
}

/// A pixel pattern (BkPixPat, PnPixPat, FillPixPat), read past.
fn skip_pixpat(r: &mut Reader) -> Result<(), RasterError> {
    let kind = r.u16("a pixel pattern")?;
    r.take(8, "a pixel pattern")?;
    match kind {
        1 => {
            let at = r.pos;
            let row_bytes = (r.u16("a pattern's pixel map")? & 0x3FFF) as usize;
            let bounds = r.rect("a pattern's pixel map")?;
            r.take(36, "a pattern's pixel map")?;
            colour_table(r)?;
            let rows = bounds.height();
            if !(0..=MAX_SIDE as i32).contains(&rows) {
                return Err(bad(at, &format!("a pattern of {rows} rows")));
            }
            for _ in 0..rows {
                let n = if row_bytes < 8 {
                    row_bytes
                } else if row_bytes > 250 {
                    r.u16("a pattern's pixels")? as usize
                } else {
                    r.u8("a pattern's pixels")? as usize
                };
                r.take(n, "a pattern's pixels")?;
            }
        }
        2 => {
            r.take(6, "a dither pattern's colour")?;
        }
        _ => {}
    }
    Ok(())
}

/// A colour table: 256 colours by pixel value (QuickDraw's 16-bit
/// channels cut to 8).
fn colour_table(r: &mut Reader) -> Result<Box<[[u8; 3]; 256]>, RasterError> {
    r.u32("a colour table")?;
    let flags = r.u16("a colour table")?;
    let n = (r.u16("a colour table")? as i16 as i32 + 1).max(0) as usize;
    let entries = r.take(n * 8, "a colour table")?;
    let mut colours = Box::new([[0u8; 3]; 256]);
    for (i, e) in entries.chunks_exact(8).enumerate() {
        // A device's table (flag 0x8000) is in pixel order; otherwise each
        // entry names its pixel value.
        let value = if flags & 0x8000 != 0 {
            i
        } else {
            u16::from_be_bytes([e[0], e[1]]) as usize
        };
        if let Some(c) = colours.get_mut(value) {
            *c = [e[2], e[4], e[6]];
        }
    }
    Ok(colours)
}

/// A mask region: its bounding box and, unless it is that rectangle, its
/// scanlines (a row and the points where being inside flips from the row
/// above, QuickDraw's inversion points).
struct Region {
    bbox: Rect,
    rows: Vec<(i32, Vec<i32>)>,
}

impl Region {
    fn read(r: &mut Reader) -> Result<Region, RasterError> {
        let at = r.pos;
        let size = r.u16("a mask region")? as usize;
        if size < 10 {
            return Err(bad(at, &format!("a mask region of {size} bytes")));
        }
        let bbox = r.rect("a mask region")?;
        let data = r.take(size - 10, "a mask region")?;
        let mut words = data.chunks_exact(2).map(|w| i16::from_be_bytes([w[0], w[1]]) as i32);
        let mut rows = Vec::new();
        if size > 10 {
            loop {
                let y = words
                    .next()
                    .ok_or_else(|| bad(at, "a mask region whose scanlines do not end (0x7FFF)"))?;
                if y == 0x7FFF {
                    break;
                }
                let mut xs = Vec::new();
                loop {
                    let x = words
                        .next()
                        .ok_or_else(|| bad(at, "a mask region whose scanline does not end (0x7FFF)"))?;
                    if x == 0x7FFF {
                        break;
                    }
                    xs.push(x);
                }
                rows.push((y, xs));
            }
        }
        Ok(Region { bbox, rows })
    }
}

/// A region read top to bottom: the inversion points of the current row.
struct RegionScan<'a> {
    region: &'a Region,
    next: usize,
    xs: Vec<i32>,
}

impl RegionScan<'_> {
    fn advance_to(&mut self, y: i32) {
        while let Some((_, flips)) = self.region.rows.get(self.next).filter(|(ry, _)| *ry <= y) {
            for &x in flips {
                match self.xs.binary_search(&x) {
                    Ok(i) => {
                        self.xs.remove(i);
                    }
                    Err(i) => self.xs.insert(i, x),
                }
            }
            self.next += 1;
        }
    }
    fn inside(&self, x: i32, y: i32) -> bool {
        self.region.bbox.contains(x, y)
            && (self.region.rows.is_empty() || self.xs.partition_point(|&p| p <= x) % 2 == 1)
    }
}

/// How a bitmap's pixels are stored in a row once unpacked.
#[derive(Clone, Copy)]
enum Layout {
    /// 1, 2, 4 or 8 bits a pixel, high bits first: a colour table's index
    /// (or, without a table, 1 = black).
    Indexed(u16),
    /// 16 bits: x, then 5 bits each of red, green and blue.
    Rgb555,
    /// 32 bits: a pad byte, red, green, blue.
    Xrgb,
    /// 24 bits (pack type 2: the pad byte removed).
    Rgb,
    /// Pack type 4: each component's row in turn (3 or 4 of them, the pad
    /// or alpha first).
    Planar(u16),
}

/// How a row is stored: as is, or PackBits with a byte count before it.
#[derive(Clone, Copy)]
enum Coding {
    Raw(usize),
    Packed { unit: usize, len: usize },
}

/// A pixel map's fields after its row bytes and bounds: pack type, bits a
/// pixel and components (the rest is read past).
fn pixmap_fields(r: &mut Reader) -> Result<(u16, u16, u16), RasterError> {
    r.u16("a pixel map")?; // pmVersion
    let pack_type = r.u16("a pixel map")?;
    r.take(14, "a pixel map")?; // packSize, hRes, vRes, pixelType
    let depth = r.u16("a pixel map")?;
    let cmp_count = r.u16("a pixel map")?;
    r.take(14, "a pixel map")?; // cmpSize, planeBytes, pmTable, pmReserved
    Ok((pack_type, depth, cmp_count))
}

/// How a bitmap's rows are laid out and stored, from its depth and pack
/// type; `None` for the kinds that are not read.
fn layout(
    direct: bool,
    depth: u16,
    pack_type: u16,
    cmp_count: u16,
    packed: bool,
    row_bytes: usize,
    w: usize,
) -> Option<(Layout, Coding)> {
    Some(match (direct, depth) {
        (false, 1 | 2 | 4 | 8) => (
            Layout::Indexed(depth),
            if packed {
                Coding::Packed {
                    unit: 1,
                    len: row_bytes,
                }
            } else {
                Coding::Raw(row_bytes)
            },
        ),
        (true, 16) => match pack_type {
            _ if !packed => (Layout::Rgb555, Coding::Raw(row_bytes)),
            1 => (Layout::Rgb555, Coding::Raw(row_bytes)),
            0 | 3 => (
                Layout::Rgb555,
                Coding::Packed {
                    unit: 2,
                    len: row_bytes,
                },
            ),
            _ => return None,
        },
        (true, 32) => match pack_type {
            _ if !packed => (Layout::Xrgb, Coding::Raw(row_bytes)),
            1 => (Layout::Xrgb, Coding::Raw(row_bytes)),
            2 => (Layout::Rgb, Coding::Raw(3 * w)),
            0 | 4 if matches!(cmp_count, 3 | 4) => (
                Layout::Planar(cmp_count),
                Coding::Packed {
                    unit: 1,
                    len: cmp_count as usize * w,
                },
            ),
            _ => return None,
        },
        _ => return None,
    })
}

/// A bitmap opcode's fields, read up to its pixels.
struct Bitmap {
    row_bytes: usize,
    bounds: Rect,
    layout: Layout,
    coding: Coding,
    colours: Option<Box<[[u8; 3]; 256]>>,
    src: Rect,
    dst: Rect,
    mask: Option<Region>,
}

impl Bitmap {
    fn read(r: &mut Reader, op: u16, at: usize) -> Result<Bitmap, RasterError> {
        let direct = matches!(op, 0x9A | 0x9B);
        if direct {
            r.u32("a pixel map's base address")?;
        }
        let rb = r.u16("a bitmap's row bytes")?;
        let row_bytes = (rb & 0x3FFF) as usize;
        let bounds = r.rect("a bitmap's bounds")?;
        let pixmap = direct || rb & 0x8000 != 0;
        let (pack_type, depth, cmp_count) = if pixmap { pixmap_fields(r)? } else { (0, 1, 1) };
        let colours = if pixmap && !direct {
            Some(colour_table(r)?)
        } else {
            None
        };
        let src = r.rect("a bitmap's source rectangle")?;
        let dst = r.rect("a bitmap's destination rectangle")?;
        r.u16("a bitmap's transfer mode")?;
        let mask = if matches!(op, 0x91 | 0x99 | 0x9B) {
            Some(Region::read(r)?)
        } else {
            None
        };
        let (w, h) = (bounds.width(), bounds.height());
        if w <= 0 || h <= 0 || w > MAX_SIDE as i32 || h > MAX_SIDE as i32 {
            return Err(bad(at, &format!("opcode {op:#06x}: a bitmap of {w} × {h} pixels")));
        }
        let w = w as usize;
        if row_bytes * 8 < w * depth as usize {
            return Err(bad(
                at,
                &format!("opcode {op:#06x}: {row_bytes} bytes a row cannot hold {w} pixels of {depth} bits"),
            ));
        }
        // Rows of 8 bytes or more are packed, whatever the opcode says
        // (appendix A's PixData; QuickDraw records BitsRect only for
        // narrower rows, and plays any wider row back as packed).
        let packed = row_bytes >= 8;
        let (layout, coding) = layout(direct, depth, pack_type, cmp_count, packed, row_bytes, w).ok_or_else(|| {
            bad(
                at,
                &format!(
                    "opcode {op:#06x}: pixels of {depth} bits with pack type {pack_type} and {cmp_count} components are not read"
                ),
            )
        })?;
        Ok(Bitmap {
            row_bytes,
            bounds,
            layout,
            coding,
            colours,
            src,
            dst,
            mask,
        })
    }

    /// Reads the pixel rows, giving each (its index and its pixels as RGB)
    /// to `each`.
    fn rows(&self, r: &mut Reader, mut each: impl FnMut(usize, &[u8])) -> Result<(), RasterError> {
        let w = self.bounds.width() as usize;
        let mut unpacked = Vec::new();
        let mut rgb = vec![0u8; 3 * w];
        for y in 0..self.bounds.height() as usize {
            let at = r.pos;
            let row: &[u8] = match self.coding {
                Coding::Raw(n) => r.take(n, "a bitmap's pixels")?,
                Coding::Packed { unit, len } => {
                    let n = if self.row_bytes > 250 {
                        r.u16("a packed row's length")? as usize
                    } else {
                        r.u8("a packed row's length")? as usize
                    };
                    let packed = r.take(n, "a packed row")?;
                    unpack_bits(packed, unit, len, &mut unpacked).map_err(|m| bad(at, &format!("row {y}: {m}")))?;
                    &unpacked
                }
            };
            self.to_rgb(row, &mut rgb);
            each(y, &rgb);
        }
        Ok(())
    }

    fn to_rgb(&self, row: &[u8], rgb: &mut [u8]) {
        let w = rgb.len() / 3;
        for (x, px) in rgb.chunks_exact_mut(3).enumerate() {
            let c = match self.layout {
                Layout::Indexed(d) => {
                    let bit = x * d as usize;
                    let v = (row[bit / 8] >> (8 - d as usize - bit % 8)) & ((1u16 << d) - 1) as u8;
                    match &self.colours {
                        Some(t) => t[v as usize],
                        None if v == 1 => [0, 0, 0],
                        None => [255, 255, 255],
                    }
                }
                Layout::Rgb555 => {
                    let v = u16::from_be_bytes([row[2 * x], row[2 * x + 1]]);
                    let five = |s: u16| {
                        let c = ((v >> s) & 31) as u8;
                        (c << 3) | (c >> 2)
                    };
                    [five(10), five(5), five(0)]
                }
                Layout::Xrgb => [row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]],
                Layout::Rgb => [row[3 * x], row[3 * x + 1], row[3 * x + 2]],
                Layout::Planar(n) => {
                    let first = (n as usize - 3) * w;
                    [row[first + x], row[first + w + x], row[first + 2 * w + x]]
                }
            };
            px.copy_from_slice(&c);
        }
    }

    /// Reads the pixels and copies them from the source to the destination
    /// rectangle (nearest pixel), through the mask.
    fn draw(&self, r: &mut Reader, c: &mut Canvas) -> Result<(), RasterError> {
        let (cw, ch) = (c.pm.width() as i64, c.pm.height() as i64);
        let (f, s, d, b) = (c.frame, self.src, self.dst, self.bounds);
        let cols = axis(
            cw,
            c.sx,
            f.left,
            (d.left, d.right),
            (s.left, s.right),
            (b.left, b.right),
        );
        let rows = axis(ch, c.sy, f.top, (d.top, d.bottom), (s.top, s.bottom), (b.top, b.bottom));
        let mut mask = self.mask.as_ref().map(|region| RegionScan {
            region,
            next: 0,
            xs: Vec::new(),
        });
        let width = cw as usize;
        let data = c.pm.data_mut();
        let mut next = 0;
        self.rows(r, |y, rgb| {
            while let Some(&(cy, _, py)) = rows.get(next).filter(|(_, by, _)| *by == y) {
                if let Some(m) = mask.as_mut() {
                    m.advance_to(py);
                }
                for &(cx, bx, px) in &cols {
                    if mask.as_ref().is_some_and(|m| !m.inside(px, py)) {
                        continue;
                    }
                    let i = (cy * width + cx) * 4;
                    data[i..i + 3].copy_from_slice(&rgb[3 * bx..3 * bx + 3]);
                    data[i + 3] = 255;
                }
                next += 1;
            }
        })
    }
}

/// Along one axis of a canvas of `n` pixels, `scale` times the frame
/// starting at `origin`: each canvas pixel inside the destination span, with
/// the bitmap pixel it shows (nearest, from the source span, counted from
/// the bitmap's bounds) and its frame coordinate.
fn axis(
    n: i64,
    scale: f64,
    origin: i32,
    dst: (i32, i32),
    src: (i32, i32),
    bounds: (i32, i32),
) -> Vec<(usize, usize, i32)> {
    let mut v = Vec::new();
    let ((d0, d1), (s0, s1), (b0, b1)) = (dst, src, bounds);
    if d1 <= d0 || s1 <= s0 {
        return v;
    }
    let lo = (((d0 - origin) as f64 * scale).floor() as i64).max(0);
    let hi = (((d1 - origin) as f64 * scale).ceil() as i64).min(n);
    for i in lo..hi {
        let p = origin as f64 + (i as f64 + 0.5) / scale;
        if p < d0 as f64 || p >= d1 as f64 {
            continue;
        }
        let s = s0 + ((p - d0 as f64) * (s1 - s0) as f64 / (d1 - d0) as f64).floor() as i32;
        if (b0..b1).contains(&s) {
            v.push((i as usize, (s - b0) as usize, p.floor() as i32));
        }
    }
    v
}

/// PackBits: a count byte n, then n + 1 units as they are (n ≥ 0) or one
/// unit 1 − n times (n < 0; −128 is nothing); a unit is a byte, or two for
/// 16-bit pixels. The row must unpack to `len` bytes.
fn unpack_bits(src: &[u8], unit: usize, len: usize, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    let mut i = 0;
    while i < src.len() && out.len() < len {
        let n = src[i] as i8;
        i += 1;
        if n >= 0 {
            let k = (n as usize + 1) * unit;
            let lit = src.get(i..i + k).ok_or("a literal run goes past the row's bytes")?;
            out.extend_from_slice(lit);
            i += k;
        } else if n != -128 {
            let rep = src.get(i..i + unit).ok_or("a repeat goes past the row's bytes")?;
            for _ in 0..(1 - n as i32) {
                out.extend_from_slice(rep);
            }
            i += unit;
        }
    }
    if out.len() < len {
        return Err(format!("the row unpacks to {} bytes, {len} expected", out.len()));
    }
    out.truncate(len);
    Ok(())
}
