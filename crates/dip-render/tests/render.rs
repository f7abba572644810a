//! Maps: SVG snapshots, PNG sizes, every bundled variant, animations.

use dip_core::{game, PhaseOutcome, State};
use dip_render::animate::{self, Step, Timing};
use dip_render::{Mode, Options, Picture};
use dip_variants::Variant;

const POSITION: &str = include_str!("../../../examples/spring-1901/position.txt");
const ORDERS: &str = include_str!("../../../examples/spring-1901/orders.txt");

fn orders(v: &Variant, text: &str) -> Vec<dip_core::Order> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| dip_text::parse_order(&v.map, l, None).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn spring_1901() -> (Variant, State, PhaseOutcome) {
    let v = dip_variants::standard();
    let state = dip_text::parse_position(&v.map, POSITION, "position.txt").unwrap();
    let o = orders(&v, ORDERS);
    let outcome = game::adjudicate(&v.map, &state, &o, &v.rules);
    (v, state, outcome)
}

/// PNG width and height from the header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let r = dec.read_info().expect("a PNG");
    let info = r.info();
    (info.width, info.height)
}

#[test]
fn standard_map_with_orders_svg_snapshot() {
    // The part that depends on the position: owners, names, centres,
    // standoffs, order arrows with results, units, title and panel.
    let (v, state, outcome) = spring_1901();
    let pic = Picture::new(&v);
    let overlay = pic.svg_overlay(&state, Some(&outcome), &pic.pieces(&state), &Options::default(), true);
    // One element a line, so that a change shows as a readable diff.
    insta::assert_snapshot!("standard_spring_1901_orders", overlay.replace("><", ">\n<"));
}

#[test]
fn standard_map_svg_has_every_province_as_a_shape() {
    let (v, state, outcome) = spring_1901();
    let svg = dip_render::render(&v, &state, Some(&outcome), &Options::default());
    for i in 0..v.map.num_provinces() {
        assert!(
            svg.contains(&format!(r#"<path id="p{i}" d="M"#)),
            "province {i} has no outline"
        );
    }
    assert!(
        svg.contains(r#"class="standoff""#),
        "the bounces in Galicia and the Black Sea are marked"
    );
    assert!(svg.contains("Standard Diplomacy — Spring 1901 movement"));
}

#[test]
fn generated_map_svg_snapshot() {
    // Pure: seven provinces and no coordinates: laid out from the adjacency
    // and grown into regions.
    let v = dip_variants::load("pure").unwrap();
    let svg = dip_render::render(&v, &v.start, None, &Options::default());
    insta::assert_snapshot!("pure_start", svg.replace("><", ">\n<"));
}

#[test]
fn png_decodes_with_the_expected_size() {
    let (v, state, outcome) = spring_1901();
    let opts = Options {
        scale: 0.5,
        ..Options::default()
    };
    let png = dip_render::render_png(&v, &state, Some(&outcome), &opts).unwrap();
    assert_eq!(png_size(&png), (715, 615));
    let opts = Options::default().with_dpi(192.0);
    let pic = Picture::new(&v);
    let (w, h) = pic.size(&opts);
    let png = dip_render::raster::png(&pic.svg(&state, None, &opts)).unwrap();
    assert_eq!(png_size(&png), ((w * 2.0) as u32, (h * 2.0) as u32));
}

#[test]
fn the_same_picture_on_every_run() {
    // Fonts are bundled and nothing is read from the system.
    let (v, state, outcome) = spring_1901();
    let opts = Options {
        scale: 0.3,
        ..Options::default()
    };
    let a = dip_render::render_png(&v, &state, Some(&outcome), &opts).unwrap();
    let b = dip_render::render_png(&v, &state, Some(&outcome), &opts).unwrap();
    assert_eq!(a, b);
}

#[test]
fn grey_and_black_and_white_modes_use_no_colour() {
    let (v, state, outcome) = spring_1901();
    for mode in [Mode::Grey, Mode::BlackWhite] {
        let svg = dip_render::render(
            &v,
            &state,
            Some(&outcome),
            &Options {
                mode,
                ..Options::default()
            },
        );
        for hex in svg.split('#').skip(1).filter_map(|s| s.get(..6)) {
            if hex.chars().all(|c| c.is_ascii_hexdigit()) {
                assert!(
                    hex[0..2] == hex[2..4] && hex[2..4] == hex[4..6],
                    "{mode:?}: colour #{hex}"
                );
            }
        }
    }
}

#[test]
fn every_bundled_variant_renders_its_start() {
    let opts = Options {
        scale: 0.25,
        ..Options::default()
    };
    for (name, _) in dip_variants::bundled() {
        let v = dip_variants::load(name).unwrap();
        let pic = Picture::new(&v);
        let svg = pic.svg(&v.start, None, &opts);
        let units = v.start.units().count();
        let icons = svg.matches(r#"<g class="unit""#).count();
        assert_eq!(icons, units, "{name}: one icon per unit");
        let png = dip_render::raster::png(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (w, h) = pic.size(&opts);
        assert_eq!(
            png_size(&png),
            ((w * 0.25).ceil() as u32, (h * 0.25).ceil() as u32),
            "{name}"
        );
    }
}

#[test]
fn variants_on_the_standard_board_use_its_shapes() {
    let standard = dip_variants::standard();
    let std = Picture::new(&standard);
    for name in ["1898", "chaos", "crowded"] {
        let v = dip_variants::load(name).unwrap();
        let pic = Picture::new(&v);
        assert!(!pic.shapes.generated, "{name}");
        assert_eq!(pic.shapes.width, std.shapes.width);
    }
}

#[test]
fn a_move_animates_from_origin_to_destination() {
    let (v, state, outcome) = spring_1901();
    let after = game::advance(&v.map, &state, &outcome);
    let pic = Picture::new(&v);
    let step = Step {
        before: &state,
        outcome: &outcome,
        after: &after,
    };
    let lon = v.map.find_province("lon").unwrap();
    let eng = v.map.find_province("eng").unwrap();
    let fleet = |t: f32| {
        animate::motion(&pic, &step, t)
            .into_iter()
            .find(|p| v.map.province_of(p.unit.region) == lon)
            .unwrap()
            .at
    };
    assert_eq!(fleet(0.0), pic.province_point(lon));
    assert_eq!(fleet(1.0), pic.province_point(eng));
    let mid = fleet(0.5);
    assert!(mid != fleet(0.0) && mid != fleet(1.0));
    // A bounced army (Vienna to Galicia) goes out and comes back.
    let vie = v.map.find_province("vie").unwrap();
    let army = |t: f32| {
        animate::motion(&pic, &step, t)
            .into_iter()
            .find(|p| v.map.province_of(p.unit.region) == vie)
            .unwrap()
            .at
    };
    assert_eq!(army(1.0), army(0.0));
    assert_ne!(army(0.5), army(0.0));
}

/// Random orders from the start for `n` phases.
fn random_game(v: &Variant, n: usize) -> (Vec<State>, Vec<PhaseOutcome>) {
    let mut rng = dip_core::random::Rng::with_seed(7);
    let mut states = vec![v.start.clone()];
    let mut outs = Vec::new();
    for _ in 0..n {
        let s = states.last().unwrap().clone();
        let o = dip_core::random::random_orders(&v.map, &s, &v.rules, &mut rng);
        let out = game::adjudicate(&v.map, &s, &o, &v.rules);
        states.push(game::advance(&v.map, &s, &out));
        outs.push(out);
    }
    (states, outs)
}

#[test]
fn a_game_animates_as_apng_and_html() {
    let v = dip_variants::standard();
    let (states, outs) = random_game(&v, 5);
    let steps = Step::sequence(&states, &outs);
    let pic = Picture::new(&v);
    let timing = Timing {
        tween: 2,
        ..Timing::default()
    };
    let frames = animate::frames(&pic, &steps, &timing);
    assert_eq!(frames.len(), 5 * 3 + 1);
    let opts = Options {
        scale: 0.25,
        ..Options::default()
    };
    let bytes = animate::apng(&pic, &frames, &opts).unwrap();
    let dec = png::Decoder::new(std::io::Cursor::new(&bytes[..]));
    let mut r = dec.read_info().unwrap();
    let ctl = r.info().animation_control.expect("an animated PNG");
    assert_eq!(ctl.num_frames, 16);
    let (w, h) = pic.size(&opts);
    assert_eq!(
        (r.info().width, r.info().height),
        ((w * 0.25).ceil() as u32, (h * 0.25).ceil() as u32)
    );
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let mut n = 0;
    while r.next_frame(&mut buf).is_ok() {
        n += 1;
    }
    assert_eq!(n, 16, "every frame decodes");
    let html = animate::html(&pic, &frames, &opts, "test");
    assert_eq!(html.matches(r#"<g class="frame""#).count(), 16);
    assert_eq!(html.matches(r#"data-key="1""#).count(), 6);
    assert_eq!(
        html.matches("<path id=\"p").count(),
        v.map.num_provinces(),
        "outlines once"
    );
}

#[test]
fn shapes_of_the_wrong_length_do_not_panic() {
    let v = dip_variants::standard();
    let shapes = dip_render::Shapes {
        width: 0,
        height: 0,
        provinces: Vec::new(),
        land: Vec::new(),
        points: Vec::new(),
        generated: false,
        places: Default::default(),
    };
    let pic = Picture::with_shapes(&v, shapes);
    let svg = pic.svg(&v.start, None, &Options::default());
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 22);
}

#[test]
fn a_png_for_print_tells_its_resolution() {
    let v = dip_variants::standard();
    let opts = Options::default().with_dpi(48.0);
    let svg = dip_render::render(&v, &v.start, None, &opts);
    let png = dip_render::raster::png_at_dpi(&svg, 48.0).unwrap();
    let dec = png::Decoder::new(std::io::Cursor::new(&png[..]));
    let r = dec.read_info().unwrap();
    let dims = r.info().pixel_dims.expect("pHYs");
    assert_eq!(dims.xppu, (48.0f32 / 0.0254).round() as u32);
    assert_eq!((r.info().width, r.info().height), (715, 615));
}

#[test]
fn units_are_drawn_onto_a_map_picture() {
    // DipWork's mapper: a blank map picture, the units at the variant's points.
    let v = dip_variants::load("pure").unwrap();
    let mut blank = resvg::tiny_skia::Pixmap::new(600, 500).unwrap();
    blank.fill(resvg::tiny_skia::Color::from_rgba8(200, 180, 120, 255));
    let bytes = dip_render::raster::encode_png(&blank).unwrap();
    let pic = Picture::with_background(&v, dip_render::Shapes::for_variant(&v), bytes).unwrap();
    assert_eq!(pic.size(&Options::default()), (600.0 + 230.0, 500.0 + 44.0));
    let svg = pic.svg(&v.start, None, &Options::default());
    assert!(svg.contains("data:image/png;base64,"));
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 7);
    let pm = pic
        .pixmap(&v.start, None, &pic.pieces(&v.start), &Options::default())
        .unwrap();
    // A corner of the map far from every unit shows the picture.
    let px = pm.pixel(2, 44 + 2).unwrap();
    assert_eq!((px.red(), px.green(), px.blue()), (200, 180, 120));
    assert!(Picture::with_background(&v, dip_render::Shapes::for_variant(&v), b"nope".to_vec()).is_err());
}

/// A province at `at=3000000,3000000` made the renderer allocate a grid of
/// 9·10¹² cells and abort.
#[test]
fn province_at_3000000_aborts_render() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/pure.variant"))
        .unwrap()
        .replace(
            "province vie Vienna land center home=AUS aka=vien",
            "province vie Vienna land center home=AUS aka=vien at=3000000,3000000",
        )
        .replace(
            "province ber Berlin land center home=GER aka=berl",
            "province ber Berlin land center home=GER aka=berl at=2147483647,5",
        );
    let v = dip_variants::parse(&text, "big.variant").unwrap();
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &Options::default());
    assert!(svg.len() < 5_000_000);
    let png = dip_render::raster::png(&svg).unwrap();
    let (w, h) = png_size(&png);
    assert!(w <= 16_384 && h <= 16_384, "{w} × {h}");
}

/// A FIELDS.TXT (or `at=`) coordinate of 2147483647 drew a 12250 × 12064
/// picture that took 1.6 GB: huge coordinates are scaled to a canvas of
/// about 4096 pixels, and the units are drawn where the map was laid out.
#[test]
fn coordinate_2147483647_drew_a_12250_pixel_canvas() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/pure.variant"))
        .unwrap()
        .replace(
            "province ber Berlin land center home=GER aka=berl",
            "province ber Berlin land center home=GER aka=berl at=2147483647,2147483647",
        );
    let v = dip_variants::parse(&text, "big.variant").unwrap();
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &Options::default());
    let png = dip_render::raster::png(&svg).unwrap();
    let (w, h) = png_size(&png);
    assert!(w <= 4_600 && h <= 4_600, "{w} × {h}");
    // Berlin's army stands on the canvas, not two billion units away.
    assert!(
        !svg.contains("2147483647") && !svg.contains("2147483600"),
        "units drawn off the canvas"
    );
}

/// A 66-byte PNG claiming 100000 × 100000 pixels made every picture reader
/// allocate 40 GB and abort.
#[test]
fn png_claiming_100000_pixels_aborts() {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, 100_000, 100_000);
        enc.set_color(png::ColorType::Rgba);
        let w = enc.write_header().unwrap();
        drop(w);
    }
    // Without the IEND the writer added, an IDAT chunk with a few bytes of zlib data.
    if bytes.len() >= 12 && &bytes[bytes.len() - 8..bytes.len() - 4] == b"IEND" {
        bytes.truncate(bytes.len() - 12);
    }
    let crc = |data: &[u8]| {
        let mut c = 0xFFFF_FFFFu32;
        for &b in data {
            c ^= b as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
        }
        !c
    };
    let body = [b'I', b'D', b'A', b'T', 0x78, 0x9c, 0x03, 0x00];
    bytes.extend_from_slice(&4u32.to_be_bytes());
    bytes.extend_from_slice(&body);
    bytes.extend_from_slice(&crc(&body).to_be_bytes());
    assert!(bytes.len() < 100, "{}", bytes.len());
    let e = dip_render::raster::decode_png(&bytes).unwrap_err().to_string();
    assert!(e.contains("100000"), "{e}");
    assert!(dip_render::raster::decode_picture(&bytes).is_err());
    // The same PNG inside an icon.
    let mut ico = vec![0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 32, 0];
    ico.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    ico.extend_from_slice(&22u32.to_le_bytes());
    ico.extend_from_slice(&bytes);
    assert!(dip_render::raster::decode_ico(&ico).is_err());
}

/// The BMP reader's errors said "not a readable PNG".
#[test]
fn bmp_error_says_png() {
    let e = dip_render::raster::decode_picture(b"BM\x00\x00")
        .unwrap_err()
        .to_string();
    assert!(e.contains("BMP") && !e.contains("PNG"), "{e}");
}

/// A name of 100,000 characters made a render take seconds (the text laid
/// out whole).
#[test]
fn name_of_100000_characters_makes_render_slow() {
    let long = "x".repeat(100_000);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/pure.variant"))
        .unwrap()
        .replace("title Pure", &format!("title {long}"))
        .replace("power AUS Austria Austrian", &format!("power AUS {long} Austrian"));
    let v = dip_variants::parse(&text, "long.variant").unwrap();
    let svg = Picture::new(&v).svg(&v.start, None, &Options::default());
    assert!(!svg.contains(&"x".repeat(1000)), "names are cut");
    assert!(svg.len() < 200_000, "{}", svg.len());
}

/// A scanline `0 0 9223372036854775807` overflowed `x + length`.
#[test]
fn rgn_scanline_of_huge_length_overflows() {
    let v = dip_variants::standard();
    let mut t = String::from("Variant\nStandard\n");
    for (i, p) in v.map.provinces().iter().enumerate() {
        t.push_str(&format!("# {}\n", p.name));
        for part in 0..p.regions.len().max(1) {
            t.push_str("1,1\n");
            if part == 0 {
                t.push_str("1,1\n");
            }
            if i == 0 && part == 0 {
                t.push_str("1\n5 0 9223372036854775807\n");
            } else {
                t.push_str("0\n");
            }
        }
    }
    let e = dip_render::Shapes::from_rgn(&v.map, &t, "x.rgn")
        .unwrap_err()
        .to_string();
    assert!(e.contains("8000"), "{e}");
}

/// Black and white: the owners' hatching and the panel's swatches are
/// patterns the SVG defines with the map's base; the PNG (and BMP) draws
/// the position as a layer over the kept base, and that layer referred to
/// patterns it did not have: owned provinces and swatches came out blank.
#[test]
fn black_and_white_rasters_lost_the_ownership_hatching() {
    let (v, state, outcome) = spring_1901();
    let pic = Picture::new(&v);
    let opts = Options {
        mode: Mode::BlackWhite,
        ..Options::default()
    };
    let whole = dip_render::raster::png(&pic.svg(&state, Some(&outcome), &opts)).unwrap();
    let layered = pic.png(&state, Some(&outcome), &opts).unwrap();
    let (a, b) = (
        dip_render::raster::decode_png(&whole).unwrap(),
        dip_render::raster::decode_png(&layered).unwrap(),
    );
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let differ = a
        .pixels()
        .iter()
        .zip(b.pixels())
        .filter(|(x, y)| {
            let d = |p: u8, q: u8| p.abs_diff(q) > 24;
            d(x.red(), y.red()) || d(x.green(), y.green()) || d(x.blue(), y.blue())
        })
        .count();
    let share = differ as f64 / a.pixels().len() as f64;
    assert!(share < 0.002, "{differ} pixels ({:.2}%) differ", share * 100.0);
}

/// The page's map: the click targets lie between the position and the
/// units (a unit's icon, which names its province and coast, is clicked
/// as itself), every name has one, and the geometry names every region.
#[test]
fn clickable_map_puts_click_targets_under_the_units() {
    let v = dip_variants::standard();
    let pic = Picture::new(&v);
    let svg = pic.svg_clickable(&v.start, None, &Options::default());
    let hits = svg.find(r#"<g id="hits""#).unwrap();
    let first_unit = svg.find(r#"<g class="unit""#).unwrap();
    let owners = svg.find(r#"<g id="owners""#).unwrap();
    assert!(owners < hits && hits < first_unit, "owners, click targets, then units");
    assert!(svg.contains(r#"<g class="unit" data-province="stp" data-coast="sc""#));
    assert_eq!(svg.matches(r#"<rect class="name""#).count(), v.map.num_provinces());
    let raw = &svg[hits..];
    let start = raw.find(r#"data-geometry=""#).unwrap() + r#"data-geometry=""#.len();
    let end = start + raw[start..].find('"').unwrap();
    let json = raw[start..end].replace("&quot;", "\"").replace("&amp;", "&");
    let geo: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(geo["points"].as_object().unwrap().len(), v.map.regions().len());
    for r in ["par", "stp/nc", "stp/sc", "spa/sc", "bul/ec"] {
        assert!(geo["points"][r].is_array(), "{r}: {geo}");
    }
    assert!(geo["powers"]["France"]["order"].as_str().unwrap().starts_with('#'));
}
