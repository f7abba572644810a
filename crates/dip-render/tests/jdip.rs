//! Drawing a jDip plugin's variant on the plugin's own map (the tiny test
//! plugin of dip-variants).

use std::path::PathBuf;

fn tiny() -> (dip_variants::Variant, String, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/jdip/tiny");
    let p = dip_variants::jdip::Plugin::open(&dir).unwrap();
    let jv = p.variant("tiny").unwrap();
    let (file, svg) = jv.svg.clone().unwrap();
    (jv.model.build("tiny").unwrap(), file, svg)
}

#[test]
fn mouse_layer_paths_become_province_shapes_in_view_box_units() {
    let (v, file, svg) = tiny();
    let s = dip_render::jdip::shapes(&v, &svg, &file).unwrap();
    assert_eq!((s.width, s.height), (300, 200));
    let hil = v.map.find_province("hil").unwrap();
    // M 20 20 … in a view box from (10, 10).
    assert_eq!(
        s.provinces[hil.index()],
        vec![vec![(10, 10), (90, 10), (90, 90), (10, 90)]]
    );
    let ssea = v.map.find_province("ssea").unwrap();
    assert_eq!(s.provinces[ssea.index()].len(), 1, "a polygon is a shape too");
    assert!(v.map.province_ids().all(|p| !s.provinces[p.index()].is_empty()));
}

#[test]
fn the_plugins_map_is_the_background() {
    let (v, file, svg) = tiny();
    let png = dip_render::jdip::background(&svg, &file).unwrap();
    let pm = dip_render::raster::decode_png(&png).unwrap();
    assert_eq!((pm.width(), pm.height()), (300, 200));
    // Sea blue at the corner, land inside; the hidden layers are not drawn.
    let px = |x: u32, y: u32| {
        let c = pm.pixel(x, y).unwrap();
        (c.red(), c.green(), c.blue())
    };
    assert_eq!(px(295, 195), (0x9c, 0xc3, 0xe0));
    assert_eq!(px(50, 50), (0xe8, 0xd9, 0xb0));
    let pic = dip_render::jdip::picture(&v, &svg, &file).unwrap();
    let out = pic.svg(&v.start, None, &dip_render::Options::default());
    assert!(out.contains("data:image/png;base64,"));
}

/// The tiny plugin with its SVG edited.
fn tiny_with_svg(edit: impl Fn(&str) -> String) -> (dip_variants::Variant, String, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/jdip/tiny");
    let files = ["variants.xml", "tiny_adjacency.xml", "tiny.svg"]
        .iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(n)).unwrap();
            let text = if *n == "tiny.svg" { edit(&text) } else { text };
            (n.to_string(), text.into_bytes())
        })
        .collect();
    let p = dip_variants::jdip::Plugin::from_memory("x.zip", files).unwrap();
    let jv = p.variant("tiny").unwrap();
    let (file, svg) = jv.svg.clone().unwrap();
    (jv.model.build("tiny").unwrap(), file, svg)
}

#[test]
fn centre_markers_were_drawn_by_the_label_not_the_maps_centre_point() {
    // hil's SUPPLY_CENTER is (60, 80): (50, 70) in the view box from (10, 10).
    // cov has none and a rotated label placed by its transform: the marker
    // goes beside the label, at (90, 140), not at the map's corner.
    let (v, file, svg) = tiny_with_svg(|t| {
        t.replace("<jdipNS:SUPPLY_CENTER x=\"110\" y=\"130\"/>", "").replace(
            "<text x=\"45\" y=\"140\">fen</text>",
            "<text x=\"45\" y=\"140\">fen</text><text transform=\"translate(100,150), rotate(-80)\" x=\"0\" y=\"0\">cov</text>",
        )
    });
    let pic = dip_render::jdip::picture(&v, &svg, &file).unwrap();
    let out = pic.svg(&v.start, None, &dip_render::Options::default());
    let centres = &out[out.find("<g id=\"centres\">").unwrap()..];
    let centres = &centres[..centres.find("</g>").unwrap()];
    assert!(centres.contains("<circle cx=\"50\" cy=\"70\" r=\"5\""), "{centres}");
    // Beside the label: three letters wide, as for every map.
    assert!(centres.contains("<circle cx=\"108.8\" cy=\"140\" r=\"5\""), "{centres}");
    assert_eq!(centres.matches("r=\"5\"").count(), 4, "{centres}");
}

#[test]
fn symbol_pack_draws_each_powers_units_in_its_colour() {
    let (v, _, _) = tiny();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/jdip/squares");
    let pack = dip_variants::jdip::SymbolPack::open(&dir).unwrap();
    assert_eq!(pack.name, "Squares");
    let pics = dip_render::jdip::symbol_pictures(&v, &pack);
    // Three powers (the inactive Greyland too) × army and fleet; the pack
    // has no wing, which keeps dip's icon.
    assert_eq!(pics.len(), 6);
    assert!(pics.iter().all(|p| v.map.unit_type(p.unit_type).letter != 'W'));
    let palette = dip_render::colour::Palette::new(&v, dip_render::Mode::Colour);
    for p in &pics {
        let pm = dip_render::raster::decode_png(&p.bytes).unwrap();
        let c = pm.pixel(pm.width() / 2, pm.height() / 2).unwrap();
        let want = dip_render::colour::Rgb::parse(&palette.power(p.power)).unwrap();
        assert_eq!((c.red(), c.green(), c.blue()), (want.0, want.1, want.2), "{}", p.path);
    }
}

#[test]
fn symbol_pack_without_an_army_is_an_error() {
    let d = std::env::temp_dir().join(format!("dip-symbols-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("symbols.svg");
    std::fs::write(&f, "<svg xmlns=\"http://www.w3.org/2000/svg\"><defs/></svg>").unwrap();
    let e = dip_variants::jdip::SymbolPack::open(&f).unwrap_err();
    assert!(
        e.to_string().contains("symbols.svg") && e.message.contains("Army"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
