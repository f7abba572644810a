//! `dip render` and `dip animate` from the command line.

use std::process::Command;

fn dip(args: &[&str]) -> (i32, String, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("dip runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn render_a_position_with_orders_to_svg() {
    let (code, out, err) = dip(&[
        "render",
        "examples/spring-1901/position.txt",
        "examples/spring-1901/orders.txt",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg"));
    assert!(out.contains("Spring 1901 movement"));
    assert_eq!(out.matches(r#"<g class="unit""#).count(), 22);
}

#[test]
fn render_a_phase_of_a_game_directory() {
    let (code, out, err) = dip(&["render", "--record", "examples/game1905/current", "--phase", "F1903M"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Fall 1903 movement"));
    let (code, _, err) = dip(&["render", "--record", "examples/game1905/current", "--phase", "S1950M"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such phase") && err.contains("S1901M"), "{err}");
}

#[test]
fn render_errors_name_the_file_and_line() {
    let dir = std::env::temp_dir().join(format!("dip-render-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "Austria: A vie - gal\nAustria: A bud - nowhere\n").unwrap();
    let (code, _, err) = dip(&["render", "examples/spring-1901/position.txt", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.txt:2:"), "{err}");
    let (code, _, err) = dip(&["render", "start", "-o", "map.jpg"]);
    assert_eq!(code, 2);
    assert!(err.contains(".svg, .png or .bmp"), "{err}");
    let (code, _, err) = dip(&["render", "start", "--mode", "sepia"]);
    assert_eq!(code, 2);
    assert!(err.contains("colour, grey or bw"), "{err}");
}

#[test]
fn animate_a_game_record_as_html() {
    let dir = std::env::temp_dir().join(format!("dip-animate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("game.html");
    let (code, _, err) = dip(&[
        "animate",
        "--record",
        "examples/game1905/current",
        "--tween",
        "1",
        "-o",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&html).unwrap();
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/game1905/current/HISTORY.REC"
    );
    let phases = std::fs::read_to_string(record)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("phase "))
        .count();
    assert!(phases > 0);
    // Per phase its orders and one in-between picture; then the last position.
    assert_eq!(page.matches(r#"<g class="frame""#).count(), phases * 2 + 1);
    assert!(page.contains("<script>"));
}

/// DIP's "Animate game": one season file given, the game's other season
/// files beside it are found by name (`xyz_s01.dip` ... `xyz_a05.dip`).
#[test]
fn animate_a_dip_season_file_finds_its_sibling_files() {
    let tmp = std::env::temp_dir().join(format!("dip-anim-siblings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let t = |p: &str| tmp.join(p).display().to_string();
    let (c, _, e) = dip(&["record", "import", "examples/mila/game1905.json", "--out", &t("rec")]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = dip(&[
        "record",
        "dip",
        &t("rec/Example_1905.rec"),
        "--out",
        &t("seasons"),
        "--prefix",
        "xyz",
    ]);
    assert_eq!(c, 0, "{e}");
    // A file of another game in the same folder is not taken.
    std::fs::copy(tmp.join("seasons/xyz_s01.dip"), tmp.join("seasons/other_s01.dip")).unwrap();
    let (c, out, e) = dip(&[
        "animate",
        "--record",
        &t("seasons/xyz_a03.dip"),
        "-o",
        &t("a.html"),
        "--tween",
        "0",
    ]);
    assert_eq!(c, 0, "{e}");
    let said = format!("{out}{e}");
    assert!(said.contains("16 phases"), "all ten season files, every phase: {said}");
    let _ = std::fs::remove_dir_all(tmp);
}

/// DIP exported its map as a Windows bitmap: `-o map.bmp` writes one.
#[test]
fn render_to_bmp_as_dip_exported() {
    let out = std::env::temp_dir().join(format!("dip-render-{}.bmp", std::process::id()));
    let (c, _, e) = dip(&["render", "start", "-o", &out.display().to_string()]);
    assert_eq!(c, 0, "{e}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..2], b"BM");
    assert_eq!(u16::from_le_bytes([bytes[28], bytes[29]]), 24, "24 bits a pixel");
    assert_eq!(
        u32::from_le_bytes(bytes[2..6].try_into().unwrap()) as usize,
        bytes.len()
    );
    let _ = std::fs::remove_file(out);
}

/// A 2 × 2 Mac PICT as the Mac edition's maps are: a 512-byte file header,
/// a version 2 picture, one DirectBitsRect of 32-bit pixels.
fn pict_2x2() -> Vec<u8> {
    let mut pic: Vec<u8> = vec![0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0x00, 0x11, 0x02, 0xFF];
    pic.extend([0x0C, 0x00, 0xFF, 0xFF, 0, 0]); // HeaderOp, version 2
    pic.extend([0; 20]);
    pic.extend([0x00, 0x9A, 0, 0, 0, 0xFF, 0x80, 8]); // DirectBitsRect, base address, row bytes
    pic.extend([0, 0, 0, 0, 0, 2, 0, 2]); // bounds
    pic.extend([0, 0, 0, 1, 0, 0, 0, 0, 0, 0x48, 0, 0, 0, 0x48, 0, 0]); // pack type 1 (none), 72 dpi
    pic.extend([0, 16, 0, 32, 0, 3, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // 32 bits, 3 × 8
    pic.extend([0, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0]); // source, destination, mode
    pic.extend([0, 200, 0, 0, 0, 0, 200, 0, 0, 0, 0, 200, 0, 9, 9, 9]);
    pic.extend([0x00, 0xFF]);
    let mut file = vec![0; 512];
    file.extend(pic);
    file
}

/// The Mac edition's ColorMap is a PICT (`Tiny.pct`, named `Tiny` in the
/// `.var`): it was neither found nor drawn on.
#[test]
fn render_of_a_realpolitik_variant_left_out_its_pict_colormap() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let src = std::path::Path::new(root).join("crates/dip-variants/tests/fixtures/realpolitik/Tiny");
    let dir = std::env::temp_dir().join(format!("dip-render-pict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    std::fs::write(dir.join("Tiny.pct"), pict_2x2()).unwrap();
    let var = dir.join("Tiny.var");
    let (code, out, err) = dip(&["render", "start", "--variant", var.to_str().unwrap(), "--no-panel"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("<image"), "the PICT ColorMap is drawn on");
    let png = dir.join("out.png");
    let (code, _, err) = dip(&[
        "render",
        "start",
        "--variant",
        var.to_str().unwrap(),
        "--no-panel",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // Cut short: an error naming the file and the offset.
    let cut = pict_2x2();
    std::fs::write(dir.join("Tiny.pct"), &cut[..cut.len() - 10]).unwrap();
    let (code, _, err) = dip(&["render", "start", "--variant", var.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("Tiny.pct") && err.contains("PICT at offset 630"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A `w` × `h` BMP of one colour, 24 bits a pixel.
fn solid_bmp(w: u32, h: u32, (r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let row = (3 * w).div_ceil(4) * 4;
    let mut bmp = b"BM".to_vec();
    bmp.extend((54 + row * h).to_le_bytes());
    bmp.extend([0u8; 4]);
    bmp.extend(54u32.to_le_bytes());
    for v in [40u32, w, h] {
        bmp.extend(v.to_le_bytes());
    }
    bmp.extend(1u16.to_le_bytes());
    bmp.extend(24u16.to_le_bytes());
    bmp.extend([0u8; 24]);
    for _ in 0..h {
        let mut line: Vec<u8> = (0..w).flat_map(|_| [b, g, r]).collect();
        line.resize(row as usize, 0);
        bmp.extend(line);
    }
    bmp
}

/// The `<image …>` a map is drawn on.
fn background(svg: &str) -> &str {
    let at = svg.find("<image ").expect("a map picture");
    &svg[at..at + svg[at..].find('>').unwrap()]
}

/// A Realpolitik variant's BWMap (`BWMap: TinyBW`) was never tested in
/// `--mode bw`: the black-and-white map is drawn on there, the ColorMap
/// in colour, and without a BWMap file the ColorMap in both.
#[test]
fn the_bwmap_was_never_tested_in_black_and_white_mode() {
    let root = std::env::temp_dir().join(format!("dip-render-bwmap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let src = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../dip-variants/tests/fixtures/realpolitik/Tiny"
    );
    for e in std::fs::read_dir(src).unwrap().flatten() {
        std::fs::copy(e.path(), root.join(e.file_name())).unwrap();
    }
    // Told apart by their sizes: the canvas is the picture's.
    std::fs::write(root.join("Tiny.bmp"), solid_bmp(40, 30, (200, 120, 40))).unwrap();
    std::fs::write(root.join("TinyBW.bmp"), solid_bmp(44, 33, (255, 255, 255))).unwrap();
    let var = root.join("Tiny.var");
    let draw = |mode: &str| {
        let (code, svg, err) = dip(&["render", "start", "--variant", var.to_str().unwrap(), "--mode", mode]);
        assert_eq!(code, 0, "{err}");
        svg
    };
    let (colour, bw) = (draw("colour"), draw("bw"));
    assert!(
        background(&colour).contains(r#"width="40" height="30""#),
        "{}",
        background(&colour)
    );
    assert!(
        background(&bw).contains(r#"width="44" height="33""#),
        "{}",
        background(&bw)
    );
    std::fs::remove_file(root.join("TinyBW.bmp")).unwrap();
    let bw = draw("bw");
    assert!(
        background(&bw).contains(r#"width="40" height="30""#),
        "{}",
        background(&bw)
    );
    let _ = std::fs::remove_dir_all(&root);
}
