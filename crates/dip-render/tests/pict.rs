//! QuickDraw pictures (the Mac edition's map pictures): every bitmap
//! opcode, depth and pack type, the opcodes skipped, and damaged files.

mod pict_writer;

use dip_render::pict::{decode_pict, is_pict};
use dip_render::raster::decode_picture;
use pict_writer::{bits, pack_bits, region, Pict, Pixels};

/// Straight RGBA of a pixel.
fn px(pm: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> [u8; 4] {
    let p = pm.pixel(x, y).unwrap().demultiply();
    [p.red(), p.green(), p.blue(), p.alpha()]
}

/// Indices with runs (repeats) and changes (literals).
fn pattern(w: usize, h: usize, colours: usize) -> Vec<Vec<u8>> {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if x < w / 3 {
                        (y % colours) as u8
                    } else {
                        ((x * 7 + y * 3) % colours) as u8
                    }
                })
                .collect()
        })
        .collect()
}

fn palette(n: usize) -> Vec<[u8; 3]> {
    (0..n)
        .map(|i| [(i * 37) as u8, (255 - (i * 11) % 256) as u8, (i * 101 % 256) as u8])
        .collect()
}

/// One bitmap drawn at the frame's top left, the frame its size.
fn one(version: u8, op: u16, p: &Pixels, header: bool) -> Vec<u8> {
    let (w, h) = match p {
        Pixels::BitMap(r) | Pixels::Indexed { rows: r, .. } => (r[0].len() as i16, r.len() as i16),
        Pixels::Direct { rows, .. } => (rows[0].len() as i16, rows.len() as i16),
    };
    let r = [0, 0, h, w];
    let mut pict = if version == 1 { Pict::v1() } else { Pict::v2(72) };
    pict.op(op).bytes(&bits(op, p, (0, 0), r, r, None));
    pict.finish(r, header)
}

#[test]
fn pict_maps_of_every_bitmap_opcode_and_depth_are_read() {
    // Widths: rows under 8 bytes (never packed), packed rows with a byte
    // count, and rows over 250 bytes (a word count).
    for w in [3usize, 40, 250, 252, 300] {
        let h = 5;
        for header in [true, false] {
            // Version 1 and 2 BitMaps.
            let rows = pattern(w, h, 2);
            for (version, op) in [(1, 0x90), (1, 0x98), (2, 0x90), (2, 0x98)] {
                let b = one(version, op, &Pixels::BitMap(rows.clone()), header);
                let pm = decode_picture(&b).unwrap_or_else(|e| panic!("v{version} {op:#x} w{w}: {e}"));
                assert_eq!((pm.width(), pm.height()), (w as u32, h as u32));
                for (y, row) in rows.iter().enumerate() {
                    for (x, &v) in row.iter().enumerate() {
                        let want = if v == 1 { [0, 0, 0, 255] } else { [255, 255, 255, 255] };
                        assert_eq!(px(&pm, x as u32, y as u32), want, "v{version} {op:#x} w{w} ({x},{y})");
                    }
                }
            }
            // Indexed pixel maps, device and value-ordered colour tables.
            for depth in [1u16, 2, 4, 8] {
                let n = 1usize << depth;
                let rows = pattern(w, h, n);
                for (op, device) in [(0x90, true), (0x98, false), (0x98, true)] {
                    let p = Pixels::Indexed {
                        depth,
                        colours: palette(n),
                        device,
                        rows: rows.clone(),
                    };
                    let pm = decode_pict(&one(2, op, &p, header))
                        .unwrap_or_else(|e| panic!("{depth} bits {op:#x} w{w}: {e}"));
                    for (y, row) in rows.iter().enumerate() {
                        for (x, &v) in row.iter().enumerate() {
                            let c = palette(n)[v as usize];
                            assert_eq!(
                                px(&pm, x as u32, y as u32),
                                [c[0], c[1], c[2], 255],
                                "{depth} bits {op:#x} w{w} ({x},{y})"
                            );
                        }
                    }
                }
            }
            // Direct pixels: 16 bits (pack types 0, 1, 3), 32 bits (0, 1, 2, 4; 3 or 4 components).
            let colours = palette(16);
            let rgb: Vec<Vec<[u8; 3]>> = pattern(w, h, 16)
                .iter()
                .map(|r| r.iter().map(|&i| colours[i as usize]).collect())
                .collect();
            let kinds = [
                (16, 0, 3),
                (16, 1, 3),
                (16, 3, 3),
                (32, 0, 3),
                (32, 1, 3),
                (32, 2, 3),
                (32, 4, 3),
                (32, 4, 4),
            ];
            for (depth, pack_type, cmp_count) in kinds {
                let p = Pixels::Direct {
                    depth,
                    pack_type,
                    cmp_count,
                    rows: rgb.clone(),
                };
                let pm = decode_pict(&one(2, 0x9A, &p, header))
                    .unwrap_or_else(|e| panic!("{depth} bits pack {pack_type} w{w}: {e}"));
                for (y, row) in rgb.iter().enumerate() {
                    for (x, c) in row.iter().enumerate() {
                        let want = if depth == 16 {
                            c.map(|v| (v >> 3) << 3 | (v >> 3) >> 2)
                        } else {
                            *c
                        };
                        assert_eq!(
                            px(&pm, x as u32, y as u32),
                            [want[0], want[1], want[2], 255],
                            "{depth} bits pack {pack_type}/{cmp_count} w{w} ({x},{y})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_region_opcodes_draw_through_their_mask() {
    // An 8 × 4 red picture drawn through an L: the left two columns of
    // every row, and the whole bottom row.
    let red = vec![vec![[200u8, 0, 0]; 8]; 4];
    let mask = region([0, 0, 4, 8], &[(0, &[0, 2]), (3, &[2, 8])]);
    let square = [0, 0, 4, 8];
    let expect = |pm: &resvg::tiny_skia::Pixmap, what: &str| {
        for y in 0..4 {
            for x in 0..8 {
                let inside = x < 2 || y == 3;
                assert_eq!(px(pm, x, y)[3] == 255, inside, "{what} ({x},{y})");
            }
        }
    };
    for (op, p) in [
        (
            0x9B,
            Pixels::Direct {
                depth: 32,
                pack_type: 4,
                cmp_count: 3,
                rows: red.clone(),
            },
        ),
        (
            0x99,
            Pixels::Indexed {
                depth: 8,
                colours: vec![[200, 0, 0]],
                device: true,
                rows: vec![vec![0; 8]; 4],
            },
        ),
        (
            0x91,
            Pixels::Indexed {
                depth: 4,
                colours: vec![[200, 0, 0]],
                device: true,
                rows: vec![vec![0; 8]; 4],
            },
        ),
    ] {
        let mut pict = Pict::v2(72);
        pict.op(op).bytes(&bits(op, &p, (0, 0), square, square, Some(&mask)));
        expect(&decode_pict(&pict.finish(square, false)).unwrap(), &format!("{op:#x}"));
    }
    // A rectangular region (no scanlines) lets the whole box through.
    let mut pict = Pict::v1();
    let rows = vec![vec![1u8; 8]; 4];
    let rect_mask = region([1, 0, 3, 8], &[]);
    pict.op(0x91).bytes(&bits(
        0x91,
        &Pixels::BitMap(rows),
        (0, 0),
        square,
        square,
        Some(&rect_mask),
    ));
    let pm = decode_pict(&pict.finish(square, false)).unwrap();
    assert_eq!((px(&pm, 3, 0)[3], px(&pm, 3, 1)[3], px(&pm, 3, 3)[3]), (0, 255, 0));
}

#[test]
fn what_a_map_picture_holds_besides_its_bitmap_is_skipped() {
    let frame = [0, 0, 2, 16];
    let p = Pixels::Indexed {
        depth: 8,
        colours: palette(4),
        device: true,
        rows: pattern(16, 2, 4),
    };
    let mut pict = Pict::v2(72);
    pict.op(0x0001).bytes(&region(frame, &[])); // clip
    pict.op(0x001E); // DefHilite
    pict.op(0x00A0).bytes(&[0, 100]); // short comment
    pict.op(0x00A1).bytes(&[0, 100, 0, 3, 1, 2, 3]); // long comment, odd length
    pict.op(0x001A).bytes(&[1, 2, 3, 4, 5, 6]); // RGBFgCol
    pict.op(0x0003).bytes(&[0, 1]); // TxFont
    pict.op(0x0004).bytes(&[1]); // TxFace
    pict.op(0x0028).bytes(&[0, 10, 0, 10, 5]).bytes(b"Paris"); // LongText
    pict.op(0x0029).bytes(&[4, 2]).bytes(b"to"); // DHText
    pict.op(0x002B).bytes(&[1, 1, 3]).bytes(b"Vie"); // DHDVText
    pict.op(0x002C).bytes(&[0, 5, 0, 2, 2]).bytes(b"Ch"); // fontName
    pict.op(0x0020).bytes(&[0; 8]); // Line
    pict.op(0x0022).bytes(&[0; 6]); // ShortLine
    pict.op(0x0031).bytes(&[0, 0, 1, 1, 0, 0, 1, 1]); // paintRect
    pict.op(0x0061).bytes(&[0; 12]); // paintArc
    pict.op(0x0071).bytes(&[0, 14, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]); // paintPoly
    pict.op(0x0081)
        .bytes(&region([0, 0, 1, 1], &[(0, &[0, 1]), (1, &[0, 1])])); // paintRgn
    pict.op(0x0012).bytes(&[0, 2]).bytes(&[0; 8]).bytes(&[0; 6]); // BkPixPat, dither
    let pat = Pixels::Indexed {
        depth: 8,
        colours: palette(2),
        device: true,
        rows: pattern(8, 8, 2),
    };
    let pat_map = bits(0x98, &pat, (0, 0), [0, 0, 8, 8], [0, 0, 8, 8], None);
    // A pattern's pixel map: the bitmap's fields without the rectangles and mode.
    let fields = 2 + 8 + 36 + 8 + 2 * 8; // row bytes, bounds, pixel map, colour table
    let mut pixpat = vec![0, 1];
    pixpat.extend([0; 8]);
    pixpat.extend_from_slice(&pat_map[..fields]);
    pixpat.extend_from_slice(&pat_map[fields + 18..]);
    pict.op(0x0013).bytes(&pixpat); // PnPixPat, a full pixel pattern
    pict.op(0x0092).bytes(&[0, 3, 9, 9, 9]); // reserved, word length
    pict.op(0x00D0).bytes(&[0, 0, 0, 2, 9, 9]); // reserved, long length
    pict.op(0x0200).bytes(&[0; 4]); // reserved, 2 × 2 bytes
    pict.op(0x8000); // reserved, nothing
    pict.op(0x8100).bytes(&[0, 0, 0, 1, 9]); // reserved, long length
    pict.op(0x0098).bytes(&bits(0x98, &p, (0, 0), frame, frame, None));
    let b = pict.finish(frame, true);
    let pm = decode_picture(&b).unwrap_or_else(|e| panic!("{e}"));
    let c = palette(4)[pattern(16, 2, 4)[1][9] as usize];
    assert_eq!(px(&pm, 9, 1), [c[0], c[1], c[2], 255]);

    // Version 1: comments, text and shapes around the bitmap.
    let mut pict = Pict::v1();
    pict.op(0x01).bytes(&region(frame, &[]));
    pict.op(0xA0).bytes(&[0, 1]);
    pict.op(0x28).bytes(&[0, 1, 0, 1, 2]).bytes(b"ab");
    pict.op(0x30).bytes(&[0; 8]);
    pict.op(0x38);
    let rows = pattern(16, 2, 2);
    pict.op(0x90)
        .bytes(&bits(0x90, &Pixels::BitMap(rows.clone()), (0, 0), frame, frame, None));
    let pm = decode_pict(&pict.finish(frame, false)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(px(&pm, 15, 1)[0], if rows[1][15] == 1 { 0 } else { 255 });
}

#[test]
fn bitmaps_are_placed_by_their_rectangles_in_the_frame() {
    // A frame at (10, 20); a 4 × 2 bitmap whose bounds start at (100, 50),
    // of which the right half (src) is drawn into a 4 × 4 square at
    // frame point (12, 24): each source pixel twice as big.
    let rows = vec![vec![0u8, 1, 2, 3], vec![3, 2, 1, 0]];
    let colours = vec![[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 9, 9]];
    let p = Pixels::Indexed {
        depth: 8,
        colours: colours.clone(),
        device: true,
        rows,
    };
    let frame = [10, 20, 20, 30];
    let mut pict = Pict::v2(72);
    pict.op(0x98)
        .bytes(&bits(0x98, &p, (100, 50), [100, 52, 102, 54], [12, 24, 16, 28], None));
    let pm = decode_pict(&pict.finish(frame, false)).unwrap();
    assert_eq!((pm.width(), pm.height()), (10, 10));
    let c = |i: usize| [colours[i][0], colours[i][1], colours[i][2], 255];
    assert_eq!(px(&pm, 4, 2), c(2));
    assert_eq!(px(&pm, 5, 3), c(2));
    assert_eq!(px(&pm, 6, 2), c(3));
    assert_eq!(px(&pm, 7, 5), c(0));
    assert_eq!(px(&pm, 4, 4), c(1));
    assert_eq!(px(&pm, 3, 2)[3], 0, "outside the bitmap: transparent");
    assert_eq!(px(&pm, 8, 2)[3], 0);
}

#[test]
fn a_144_dpi_pict_keeps_every_pixel() {
    // 8 × 6 pixels drawn into a 4 × 3 frame: the canvas is 8 × 6.
    let colours = palette(16);
    let rgb: Vec<Vec<[u8; 3]>> = pattern(8, 6, 16)
        .iter()
        .map(|r| r.iter().map(|&i| colours[i as usize]).collect())
        .collect();
    let p = Pixels::Direct {
        depth: 32,
        pack_type: 4,
        cmp_count: 3,
        rows: rgb.clone(),
    };
    let mut pict = Pict::v2(144);
    pict.op(0x9A)
        .bytes(&bits(0x9A, &p, (0, 0), [0, 0, 6, 8], [0, 0, 3, 4], None));
    let pm = decode_pict(&pict.finish([0, 0, 3, 4], true)).unwrap();
    assert_eq!((pm.width(), pm.height()), (8, 6));
    for (y, row) in rgb.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            assert_eq!(px(&pm, x as u32, y as u32), [c[0], c[1], c[2], 255], "({x},{y})");
        }
    }
}

/// A picture made at 96 dpi (OpenCPicture's extended version 2) has its
/// opcodes in the header's source rectangle, 4/3 of the frame: it was cut
/// to the frame.
#[test]
fn an_extended_pict_at_96_dpi_was_cut_to_its_72_dpi_frame() {
    let colours = palette(16);
    let rgb: Vec<Vec<[u8; 3]>> = pattern(8, 4, 16)
        .iter()
        .map(|r| r.iter().map(|&i| colours[i as usize]).collect())
        .collect();
    let p = Pixels::Direct {
        depth: 32,
        pack_type: 4,
        cmp_count: 3,
        rows: rgb.clone(),
    };
    let source = [0, 0, 4, 8];
    let mut pict = Pict::v2_in(96, source);
    pict.op(0x9A).bytes(&bits(0x9A, &p, (0, 0), source, source, None));
    let pm = decode_pict(&pict.finish([0, 0, 3, 6], true)).unwrap();
    assert_eq!((pm.width(), pm.height()), (8, 4));
    assert_eq!(px(&pm, 7, 3), [rgb[3][7][0], rgb[3][7][1], rgb[3][7][2], 255]);
}

/// A valid picture with a header, a comment and a packed 8-bit map.
fn sample() -> Vec<u8> {
    let p = Pixels::Indexed {
        depth: 8,
        colours: palette(4),
        device: false,
        rows: pattern(20, 3, 4),
    };
    let mut pict = Pict::v2(72);
    pict.op(0x00A1).bytes(&[0, 1, 0, 1, 7]);
    pict.op(0x0098)
        .bytes(&bits(0x98, &p, (0, 0), [0, 0, 3, 20], [0, 0, 3, 20], None));
    pict.finish([0, 0, 3, 20], true)
}

#[test]
fn a_pict_cut_anywhere_is_an_error_naming_the_offset() {
    let good = sample();
    assert!(decode_pict(&good).is_ok());
    for n in 0..good.len() {
        match decode_picture(&good[..n]) {
            Ok(_) => panic!("read when cut at {n}"),
            Err(e) => {
                let e = e.to_string();
                if n >= 526 {
                    assert!(e.contains("PICT at offset"), "cut at {n}: {e}");
                }
            }
        }
    }
    // The last byte (the end opcode's) missing: said so.
    let e = decode_pict(&good[..good.len() - 1]).unwrap_err().to_string();
    assert!(e.contains("0x00FF"), "{e}");
}

#[test]
fn hostile_picts_are_refused_before_anything_is_allocated() {
    let err = |b: &[u8]| decode_pict(b).unwrap_err().to_string();
    // A frame of 30000 × 30000 points.
    let mut b = sample();
    b[512 + 6..512 + 10].copy_from_slice(&[0x75, 0x30, 0x75, 0x30]);
    assert!(err(&b).contains("30000 × 30000"), "{}", err(&b));
    // A bitmap claiming 30000 rows (its data is a few bytes).
    let p = Pixels::Indexed {
        depth: 8,
        colours: palette(2),
        device: true,
        rows: pattern(20, 1, 2),
    };
    let mut data = bits(0x98, &p, (0, 0), [0, 0, 1, 20], [0, 0, 1, 20], None);
    data[6..8].copy_from_slice(&30000i16.to_be_bytes()); // bounds.bottom
    let mut pict = Pict::v2(72);
    pict.op(0x98).bytes(&data);
    let e = err(&pict.finish([0, 0, 1, 20], false));
    assert!(e.contains("20 × 30000"), "{e}");
    // Row bytes too few for the width.
    let mut data = bits(0x98, &p, (0, 0), [0, 0, 1, 20], [0, 0, 1, 20], None);
    data[0..2].copy_from_slice(&(0x8000u16 | 8).to_be_bytes());
    let mut pict = Pict::v2(72);
    pict.op(0x98).bytes(&data);
    let e = err(&pict.finish([0, 0, 1, 20], false));
    assert!(e.contains("8 bytes a row cannot hold 20 pixels"), "{e}");
    // A packed row that unpacks to too few bytes.
    let mut pict = Pict::v2(72);
    let mut data = bits(0x98, &p, (0, 0), [0, 0, 1, 20], [0, 0, 1, 20], None);
    let row_at = data.len() - 1 - pack_bits(&pattern(20, 1, 2)[0], 1).len();
    data.truncate(row_at);
    data.extend([2, 0, 7]); // 2 bytes: a literal of one byte, not 20
    pict.op(0x98).bytes(&data);
    let e = err(&pict.finish([0, 0, 1, 20], false));
    assert!(e.contains("row 0") || e.contains("unpacks"), "{e}");
    // One pixel stretched over a 16000 × 16000 frame, five times.
    let dot = Pixels::BitMap(vec![vec![1]]);
    let frame = [0, 0, 16000, 16000];
    let mut pict = Pict::v1();
    for _ in 0..5 {
        pict.op(0x90)
            .bytes(&bits(0x90, &dot, (0, 0), [0, 0, 1, 1], frame, None));
    }
    let e = err(&pict.finish(frame, false));
    assert!(e.contains("more than four pictures of the largest size"), "{e}");
    // Pixels of 24 bits, and 32 bits with pack type 3.
    for (depth, pack) in [(24u16, 0u16), (32, 3)] {
        let p = Pixels::Direct {
            depth: 32,
            pack_type: pack,
            cmp_count: 3,
            rows: vec![vec![[1, 2, 3]; 4]],
        };
        let mut data = bits(0x9A, &p, (0, 0), [0, 0, 1, 4], [0, 0, 1, 4], None);
        data[4 + 2 + 8 + 2 + 2 + 12 + 2..][..2].copy_from_slice(&depth.to_be_bytes());
        let mut pict = Pict::v2(72);
        pict.op(0x9A).bytes(&data);
        let e = err(&pict.finish([0, 0, 1, 4], false));
        assert!(e.contains("are not read"), "{depth}/{pack}: {e}");
    }
}

#[test]
fn unknown_and_unreadable_opcodes_are_named_with_their_offset() {
    // Version 1 has no opcode 0x1A (a version 2 colour).
    let mut pict = Pict::v1();
    pict.op(0xA0).bytes(&[0, 0]);
    pict.op(0x1A).bytes(&[0; 6]);
    let e = decode_pict(&pict.finish([0, 0, 2, 2], false)).unwrap_err().to_string();
    assert!(e.contains("opcode 0x1a") && e.contains("offset 15"), "{e}");
    // Version 2's reserved 0x0017 has no size.
    let mut pict = Pict::v2(72);
    pict.op(0x0017);
    let e = decode_pict(&pict.finish([0, 0, 2, 2], true)).unwrap_err().to_string();
    assert!(e.contains("opcode 0x0017") && e.contains("offset 552"), "{e}");
    // A picture of lines and text only: nothing to draw.
    let mut pict = Pict::v2(72);
    pict.op(0x0020).bytes(&[0; 8]);
    let e = decode_pict(&pict.finish([0, 0, 2, 2], false)).unwrap_err().to_string();
    assert!(e.contains("no bitmap"), "{e}");
    // A QuickTime (JPEG) image inside: said so.
    let mut pict = Pict::v2(72);
    pict.op(0x8200).bytes(&[0, 0, 0, 2, 0, 0]);
    let e = decode_pict(&pict.finish([0, 0, 2, 2], false)).unwrap_err().to_string();
    assert!(e.contains("QuickTime") && e.contains("offset 40"), "{e}");
}

#[test]
fn picts_are_told_from_other_pictures() {
    assert!(is_pict(&sample()));
    assert!(is_pict(&sample()[512..]));
    assert!(!is_pict(b"BM\0\0\0\0\0\0\0\0\0\0\0\0"));
    assert!(!is_pict(b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR"));
    assert!(!is_pict(&[0; 600]));
}
