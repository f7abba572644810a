//! A variant's unit pictures (`unit-picture`) are drawn instead of the
//! generated icons, in SVG and in PNG.

use dip_render::svg::TITLE_H;
use dip_render::{Mode, Options, Picture};
use dip_variants::Variant;

const MINI: &str = r#"variant mini
title Mini Map
start 1901 spring
victory 0
power NOR North Northern colour=#2040c0
power SOU South Southern colour=#c04020
province aaa Alpha coast center home=NOR at=100,100
province bbb Beta coast center home=SOU at=260,100
province sea "The Sea" sea at=180,30
border A aaa bbb
border F aaa sea bbb
unit-at NOR A aaa
unit-at SOU F bbb
unit-picture NOR A pics/nor_army.png
unit-picture SOU A pics/sou_army.bmp
"#;

/// The colour of the army picture: in no power's colour nor the map's.
const GREEN: (u8, u8, u8) = (20, 220, 60);

/// A `w × h` PNG of one colour.
fn solid_png(w: u32, h: u32, (r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).unwrap();
    pm.fill(resvg::tiny_skia::Color::from_rgba8(r, g, b, 255));
    dip_render::raster::encode_png(&pm).unwrap()
}

/// A 2 × 2 24-bit BMP of one colour.
fn solid_bmp((r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(b"BM");
    v.extend_from_slice(&(54u32 + 16).to_le_bytes());
    v.extend_from_slice(&[0; 4]);
    v.extend_from_slice(&54u32.to_le_bytes());
    v.extend_from_slice(&40u32.to_le_bytes());
    v.extend_from_slice(&2i32.to_le_bytes());
    v.extend_from_slice(&2i32.to_le_bytes());
    v.extend_from_slice(&1u16.to_le_bytes());
    v.extend_from_slice(&24u16.to_le_bytes());
    v.extend_from_slice(&[0; 24]);
    for _ in 0..2 {
        v.extend_from_slice(&[b, g, r, b, g, r, 0, 0]);
    }
    v
}

/// MINI with its pictures, loaded from a folder of its own.
fn mini(test: &str) -> Variant {
    let dir = std::env::temp_dir().join(format!("dip-render-unit-pictures-{}-{test}", std::process::id()));
    std::fs::create_dir_all(dir.join("pics")).unwrap();
    let png = solid_png(8, 8, GREEN);
    assert!(png.len() < 400, "a tiny picture: {} bytes", png.len());
    std::fs::write(dir.join("pics/nor_army.png"), png).unwrap();
    std::fs::write(dir.join("pics/sou_army.bmp"), solid_bmp((250, 250, 0))).unwrap();
    let path = dir.join("mini.variant");
    std::fs::write(&path, MINI).unwrap();
    let v = dip_variants::load(path.to_str().unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    v
}

fn rgb(pm: &resvg::tiny_skia::Pixmap, (x, y): (f32, f32), scale: f32) -> (u8, u8, u8) {
    let p = pm
        .pixel((x * scale).round() as u32, ((y + TITLE_H) * scale).round() as u32)
        .unwrap()
        .demultiply();
    (p.red(), p.green(), p.blue())
}

#[test]
fn a_unit_picture_is_drawn_instead_of_the_generated_icon() {
    let v = mini("svg");
    assert_eq!(v.unit_pictures.len(), 2);
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &Options::default());
    // The northern army is the picture; the southern fleet keeps its icon.
    assert_eq!(svg.matches("<image ").count(), 1, "{svg}");
    let uri = format!(
        "data:image/png;base64,{}",
        dip_render::raster::base64(&v.unit_pictures[0].bytes)
    );
    assert!(svg.contains(&uri));
    assert!(svg.contains(r#"<image x="-14" y="-14" width="28" height="28""#));
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 2);
    assert_eq!(svg.matches("font-weight=\"bold\" text-anchor=\"middle\"").count(), 1);
}

#[test]
fn the_png_shows_the_unit_picture_at_the_units_place() {
    let v = mini("png");
    let aaa = v.map.find_province("aaa").unwrap();
    let bbb = v.map.find_province("bbb").unwrap();
    for scale in [1.0, 2.0] {
        let opts = Options {
            scale,
            ..Options::default()
        };
        let pic = Picture::new(&v);
        // Both ways of making pixels: the whole SVG at once, and the kept base
        // with the position drawn over it.
        let once = dip_render::raster::pixmap(&pic.svg(&v.start, None, &opts)).unwrap();
        let kept = pic.pixmap(&v.start, None, &pic.pieces(&v.start), &opts).unwrap();
        for pm in [&once, &kept] {
            let (x, y) = pic.province_point(aaa);
            for (dx, dy) in [(0.0, 0.0), (-10.0, -10.0), (10.0, 10.0)] {
                assert_eq!(rgb(pm, (x + dx, y + dy), scale), GREEN, "scale {scale}");
            }
            assert_ne!(rgb(pm, pic.province_point(bbb), scale), GREEN);
        }
    }
    // The PNG file says the same.
    let png = dip_render::render_png(&v, &v.start, None, &Options::default()).unwrap();
    let pm = dip_render::raster::decode_png(&png).unwrap();
    assert_eq!(rgb(&pm, Picture::new(&v).province_point(aaa), 1.0), GREEN);
}

#[test]
fn a_bmp_unit_picture_goes_into_the_svg_as_png() {
    let mut v = mini("bmp");
    // Put the southern army (a BMP picture) on the board.
    let sou = v.map.find_power("SOU").unwrap();
    let bbb = v.map.find_province("bbb").unwrap();
    let mut start = dip_core::State::empty(&v.map, v.start.phase);
    start.place(
        &v.map,
        dip_core::Unit {
            power: sou,
            kind: dip_core::UnitTypeId(0),
            region: v.map.main_region(bbb),
        },
    );
    v.start = start;
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &Options::default());
    assert_eq!(svg.matches("<image ").count(), 1);
    assert!(svg.contains(r#"xlink:href="data:image/png;base64,iVBOR"#));
    let pm = dip_render::raster::pixmap(&svg).unwrap();
    assert_eq!(rgb(&pm, pic.province_point(bbb), 1.0), (250, 250, 0));
}

#[test]
fn unit_pictures_turn_grey_in_grey_mode() {
    let v = mini("grey");
    let aaa = v.map.find_province("aaa").unwrap();
    let opts = Options {
        mode: Mode::Grey,
        ..Options::default()
    };
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &opts);
    assert!(svg.contains(r#"filter="url(#unitgrey)""#));
    let pm = dip_render::raster::pixmap(&svg).unwrap();
    let (r, g, b) = rgb(&pm, pic.province_point(aaa), 1.0);
    assert!(r == g && g == b, "{r} {g} {b}");
}

/// A dislodged unit's picture is drawn at full size on its red disc (it
/// was drawn at 0.72, small behind a ring over the unit that took its place).
#[test]
fn a_dislodged_unit_picture_is_drawn_full_size_on_a_disc() {
    let v = mini("small");
    let pic = Picture::new(&v);
    let mut pieces = pic.pieces(&v.start);
    pieces[0].dislodged = true;
    let svg = pic.svg_frame(&v.start, None, &pieces, &Options::default());
    let unit = svg.split(r#"<g class="unit dislodged""#).nth(1).unwrap();
    let unit = unit.split("</g>").next().unwrap();
    assert!(!unit.contains("scale("), "{unit}");
    assert!(unit.contains("<circle r=\"18\"") && unit.contains("<image "), "{unit}");
}

/// A 32 × 32 24-bit icon of one colour whose AND mask makes its left half transparent.
fn half_transparent_ico((r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let (w, h) = (32usize, 32usize);
    let mut img = Vec::new();
    img.extend_from_slice(&40u32.to_le_bytes());
    img.extend_from_slice(&(w as i32).to_le_bytes());
    img.extend_from_slice(&(2 * h as i32).to_le_bytes());
    img.extend_from_slice(&1u16.to_le_bytes());
    img.extend_from_slice(&24u16.to_le_bytes());
    img.extend_from_slice(&[0; 24]);
    for _ in 0..h {
        for _ in 0..w {
            img.extend_from_slice(&[b, g, r]);
        }
    }
    for _ in 0..h {
        img.extend_from_slice(&[0xff, 0xff, 0, 0]);
    }
    let mut ico = vec![0, 0, 1, 0, 1, 0, w as u8, h as u8, 0, 0, 1, 0, 24, 0];
    ico.extend_from_slice(&(img.len() as u32).to_le_bytes());
    ico.extend_from_slice(&22u32.to_le_bytes());
    ico.extend_from_slice(&img);
    ico
}

#[test]
fn a_realpolitik_icon_is_drawn_with_its_transparent_parts() {
    let mut v = mini("ico");
    let sou = v.map.find_power("SOU").unwrap();
    let fleet = dip_core::UnitTypeId(1);
    v.unit_pictures.push(dip_variants::UnitPicture {
        power: sou,
        unit_type: fleet,
        path: "Icon Files/RedFleet.ico".into(),
        bytes: half_transparent_ico((250, 0, 250)),
    });
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &Options::default());
    assert_eq!(svg.matches("<image ").count(), 2);
    let plain = mini("ico-bare");
    let bare = Picture::new(&plain);
    let without = dip_render::raster::pixmap(&bare.svg(&plain.start, None, &Options::default())).unwrap();
    let pm = dip_render::raster::pixmap(&svg).unwrap();
    let (x, y) = pic.province_point(v.map.find_province("bbb").unwrap());
    // Right half: the icon's colour; far left: the map as without any unit.
    assert_eq!(rgb(&pm, (x + 8.0, y), 1.0), (250, 0, 250));
    assert_eq!(
        rgb(&pm, (x - 13.0, y + 12.0), 1.0),
        rgb(&without, (x - 13.0, y + 12.0), 1.0)
    );
}

/// A 1 × 1 uncompressed RGB TIF (Intel order), as DipWork's unit pictures are.
fn one_pixel_tif((r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let mut t = b"II*\0".to_vec();
    t.extend_from_slice(&8u32.to_le_bytes());
    let entries: [(u16, u16, u32); 7] = [
        (256, 3, 1),
        (257, 3, 1),
        (258, 3, 8),
        (262, 3, 2),
        (273, 4, 8 + 2 + 7 * 12 + 4),
        (277, 3, 3),
        (279, 4, 3),
    ];
    t.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    for (tag, ty, v) in entries {
        t.extend_from_slice(&tag.to_le_bytes());
        t.extend_from_slice(&ty.to_le_bytes());
        t.extend_from_slice(&1u32.to_le_bytes());
        t.extend_from_slice(&v.to_le_bytes());
    }
    t.extend_from_slice(&[0; 4]);
    t.extend_from_slice(&[r, g, b]);
    t
}

#[test]
fn a_dipwork_tif_unit_picture_is_drawn() {
    let mut v = mini("tif");
    let sou = v.map.find_power("SOU").unwrap();
    v.unit_pictures.push(dip_variants::UnitPicture {
        power: sou,
        unit_type: dip_core::UnitTypeId(1),
        path: "VARIANTS/UNITPICS/su_f_64.tif".into(),
        bytes: one_pixel_tif((0, 90, 250)),
    });
    let pic = Picture::new(&v);
    let svg = pic.svg(&v.start, None, &Options::default());
    let pm = dip_render::raster::pixmap(&svg).unwrap();
    let (x, y) = pic.province_point(v.map.find_province("bbb").unwrap());
    assert_eq!(rgb(&pm, (x + 10.0, y - 10.0), 1.0), (0, 90, 250));
}

/// Realpolitik's flag 8 (`picture icons large`): its large icons were
/// drawn at the small size; "icons are not transformed to standard size":
/// the 8-pixel picture is drawn 8 map pixels wide.
#[test]
fn large_icons_were_drawn_at_the_small_size() {
    let mut v = mini("large");
    v.pictures.push(("icons".into(), "large".into()));
    let svg = Picture::new(&v).svg(&v.start, None, &Options::default());
    assert!(svg.contains(r#"<image x="-4" y="-4" width="8" height="8""#), "{svg}");
}
