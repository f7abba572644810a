//! A QuickDraw picture writer for the reader's tests only: version 1 and 2
//! pictures with every bitmap opcode, depth and pack type the reader
//! knows, written from the layout in Inside Macintosh: Imaging With
//! QuickDraw, appendix A.

/// A rectangle as QuickDraw writes it: top, left, bottom, right.
pub type Rect = [i16; 4];

/// A picture being written: its opcodes after the version (and, in
/// version 2, the header opcode).
pub struct Pict {
    pub version: u8,
    body: Vec<u8>,
}

impl Pict {
    pub fn v1() -> Pict {
        Pict {
            version: 1,
            body: Vec::new(),
        }
    }

    /// An extended version 2 picture at `dpi` (its header opcode says so),
    /// its opcodes in the frame's coordinates.
    pub fn v2(dpi: u16) -> Pict {
        Pict::v2_in(dpi, [0; 4])
    }

    /// The same, its opcodes in `source`'s coordinates (the header's
    /// optimal source rectangle, at `dpi`).
    pub fn v2_in(dpi: u16, source: Rect) -> Pict {
        let mut p = Pict {
            version: 2,
            body: Vec::new(),
        };
        p.op(0x0C00);
        p.bytes(&(-2i16).to_be_bytes());
        p.bytes(&[0, 0]);
        p.bytes(&(dpi as u32 * 65536).to_be_bytes());
        p.bytes(&(dpi as u32 * 65536).to_be_bytes());
        p.bytes(&rect(source));
        p.bytes(&[0; 4]);
        p
    }

    /// An opcode: a byte in version 1, a word on an even offset in version 2
    /// (the body starts on an even offset of the picture).
    pub fn op(&mut self, op: u16) -> &mut Pict {
        if self.version == 2 {
            if self.body.len() % 2 == 1 {
                self.body.push(0);
            }
            self.body.extend_from_slice(&op.to_be_bytes());
        } else {
            self.body.push(op as u8);
        }
        self
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Pict {
        self.body.extend_from_slice(b);
        self
    }

    /// The file: the 512-byte header when asked, `picSize`, the frame,
    /// the version, the opcodes and the end of the picture.
    pub fn finish(&self, frame: Rect, header: bool) -> Vec<u8> {
        let mut pic = vec![0, 0];
        pic.extend(rect(frame));
        if self.version == 2 {
            pic.extend_from_slice(&[0x00, 0x11, 0x02, 0xFF]);
        } else {
            pic.extend_from_slice(&[0x11, 0x01]);
        }
        pic.extend_from_slice(&self.body);
        if self.version == 2 {
            if pic.len() % 2 == 1 {
                pic.push(0);
            }
            pic.extend_from_slice(&[0x00, 0xFF]);
        } else {
            pic.push(0xFF);
        }
        let size = (pic.len() as u16).to_be_bytes();
        pic[..2].copy_from_slice(&size);
        let mut file = if header { vec![0; 512] } else { Vec::new() };
        file.extend(pic);
        file
    }
}

pub fn rect(r: Rect) -> Vec<u8> {
    r.iter().flat_map(|v| v.to_be_bytes()).collect()
}

/// A region: its box and its scanlines (a row and its inversion points).
pub fn region(bbox: Rect, rows: &[(i16, &[i16])]) -> Vec<u8> {
    let mut data = Vec::new();
    for (y, xs) in rows {
        data.extend(y.to_be_bytes());
        for x in *xs {
            data.extend(x.to_be_bytes());
        }
        data.extend(0x7FFFi16.to_be_bytes());
    }
    if !rows.is_empty() {
        data.extend(0x7FFFi16.to_be_bytes());
    }
    let mut b = ((10 + data.len()) as u16).to_be_bytes().to_vec();
    b.extend(rect(bbox));
    b.extend(data);
    b
}

/// PackBits with real runs: two or more equal units become a repeat, the
/// rest literals; `unit` is 1 byte, or 2 for 16-bit pixels.
pub fn pack_bits(raw: &[u8], unit: usize) -> Vec<u8> {
    let units: Vec<&[u8]> = raw.chunks(unit).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let mut run = 1;
        while i + run < units.len() && run < 128 && units[i + run] == units[i] {
            run += 1;
        }
        if run >= 2 {
            out.push((1 - run as i32) as i8 as u8);
            out.extend_from_slice(units[i]);
            i += run;
            continue;
        }
        let mut lit = 1;
        while i + lit < units.len() && lit < 128 && !(i + lit + 1 < units.len() && units[i + lit] == units[i + lit + 1])
        {
            lit += 1;
        }
        out.push((lit - 1) as u8);
        for u in &units[i..i + lit] {
            out.extend_from_slice(u);
        }
        i += lit;
    }
    out
}

/// The pixels of a bitmap opcode.
#[derive(Clone)]
pub enum Pixels {
    /// A 1-bit BitMap (no pixel map): rows of 0 (white) and 1 (black).
    BitMap(Vec<Vec<u8>>),
    /// A pixel map of 1, 2, 4 or 8 bits with its colour table (in pixel
    /// order when `device`, else each entry naming its value, written in
    /// reverse), rows of indices.
    Indexed {
        depth: u16,
        colours: Vec<[u8; 3]>,
        device: bool,
        rows: Vec<Vec<u8>>,
    },
    /// Direct pixels of 16 or 32 bits.
    Direct {
        depth: u16,
        pack_type: u16,
        cmp_count: u16,
        rows: Vec<Vec<[u8; 3]>>,
    },
}

impl Pixels {
    fn width(&self) -> usize {
        match self {
            Pixels::BitMap(r) | Pixels::Indexed { rows: r, .. } => r[0].len(),
            Pixels::Direct { rows, .. } => rows[0].len(),
        }
    }
    fn height(&self) -> usize {
        match self {
            Pixels::BitMap(r) | Pixels::Indexed { rows: r, .. } => r.len(),
            Pixels::Direct { rows, .. } => rows.len(),
        }
    }
    fn depth(&self) -> u16 {
        match self {
            Pixels::BitMap(_) => 1,
            Pixels::Indexed { depth, .. } | Pixels::Direct { depth, .. } => *depth,
        }
    }
    pub fn row_bytes(&self) -> usize {
        (self.width() * self.depth() as usize).div_ceil(16) * 2
    }
}

/// A bitmap opcode's data (after the opcode): the pixels at `origin` (the
/// bounds' top left), copied from `src` to `dst`, through `mask` (region
/// bytes) for the `…Rgn` opcodes.
pub fn bits(op: u16, px: &Pixels, origin: (i16, i16), src: Rect, dst: Rect, mask: Option<&[u8]>) -> Vec<u8> {
    let (w, h) = (px.width(), px.height());
    let row_bytes = px.row_bytes();
    let bounds = [origin.0, origin.1, origin.0 + h as i16, origin.1 + w as i16];
    let mut b = Vec::new();
    let direct = matches!(op, 0x9A | 0x9B);
    if direct {
        b.extend(0xFFu32.to_be_bytes());
    }
    let pixmap = !matches!(px, Pixels::BitMap(_));
    b.extend((row_bytes as u16 | if pixmap { 0x8000 } else { 0 }).to_be_bytes());
    b.extend(rect(bounds));
    let (pack_type, cmp_count) = match px {
        Pixels::Direct {
            pack_type, cmp_count, ..
        } => (*pack_type, *cmp_count),
        _ => (0, 1),
    };
    if pixmap {
        let depth = px.depth();
        b.extend(0u16.to_be_bytes());
        b.extend(pack_type.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        b.extend(0x0048_0000u32.to_be_bytes());
        b.extend(0x0048_0000u32.to_be_bytes());
        b.extend((if direct { 16u16 } else { 0 }).to_be_bytes());
        b.extend(depth.to_be_bytes());
        b.extend(cmp_count.to_be_bytes());
        b.extend((if depth == 16 { 5u16 } else { depth.min(8) }).to_be_bytes());
        b.extend([0; 12]);
    }
    if let Pixels::Indexed { colours, device, .. } = px {
        b.extend(0u32.to_be_bytes());
        b.extend((if *device { 0x8000u16 } else { 0 }).to_be_bytes());
        b.extend((colours.len() as u16).wrapping_sub(1).to_be_bytes());
        let mut entries: Vec<(usize, &[u8; 3])> = colours.iter().enumerate().collect();
        if !device {
            entries.reverse();
        }
        for (i, c) in entries {
            b.extend((if *device { 0 } else { i as u16 }).to_be_bytes());
            for v in c {
                b.extend((*v as u16 * 257).to_be_bytes());
            }
        }
    }
    b.extend(rect(src));
    b.extend(rect(dst));
    b.extend(0u16.to_be_bytes());
    if let Some(m) = mask {
        b.extend_from_slice(m);
    }
    let packed = row_bytes >= 8;
    for y in 0..h {
        let (raw, unpacked_as_is, unit) = row(px, y, row_bytes, packed);
        if !packed || unpacked_as_is {
            b.extend(raw);
            continue;
        }
        let data = pack_bits(&raw, unit);
        if row_bytes > 250 {
            b.extend((data.len() as u16).to_be_bytes());
        } else {
            b.push(data.len() as u8);
        }
        b.extend(data);
    }
    b
}

/// One row's bytes before packing, whether they are stored as they are
/// (pack types 1 and 2), and the unit PackBits works in.
fn row(px: &Pixels, y: usize, row_bytes: usize, packed: bool) -> (Vec<u8>, bool, usize) {
    match px {
        Pixels::BitMap(rows) | Pixels::Indexed { rows, .. } => {
            let d = px.depth() as usize;
            let mut raw = vec![0u8; row_bytes];
            for (x, &v) in rows[y].iter().enumerate() {
                let bit = x * d;
                raw[bit / 8] |= v << (8 - d - bit % 8);
            }
            (raw, false, 1)
        }
        Pixels::Direct {
            depth: 16,
            pack_type,
            rows,
            ..
        } => {
            let raw = rows[y]
                .iter()
                .flat_map(|c| {
                    let v = (c[0] as u16 >> 3) << 10 | (c[1] as u16 >> 3) << 5 | c[2] as u16 >> 3;
                    v.to_be_bytes()
                })
                .collect();
            (raw, *pack_type == 1, 2)
        }
        Pixels::Direct {
            pack_type,
            cmp_count,
            rows,
            ..
        } => {
            let r = &rows[y];
            match pack_type {
                _ if !packed => (r.iter().flat_map(|c| [0, c[0], c[1], c[2]]).collect(), true, 1),
                1 => (r.iter().flat_map(|c| [0, c[0], c[1], c[2]]).collect(), true, 1),
                2 => (r.iter().flat_map(|c| *c).collect(), true, 1),
                _ => {
                    // Planar: the pad (or alpha) component first when there are 4.
                    let mut raw = Vec::new();
                    if *cmp_count == 4 {
                        raw.extend(std::iter::repeat_n(0u8, r.len()));
                    }
                    for k in 0..3 {
                        raw.extend(r.iter().map(|c| c[k]));
                    }
                    (raw, false, 1)
                }
            }
        }
    }
}
