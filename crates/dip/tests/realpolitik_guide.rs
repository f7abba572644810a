//! Realpolitik's variant guide, as its users lay their files out: the
//! program's folder with its global `Icon Files`, the variants under
//! `Variant Files/`, a `.var` with the guide's lines, a `.rgn` with the
//! guide's special fleet position `x,y,xs,ys`, the `Flags` of large icons.
//! Each test is named after what failed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dip(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .output()
        .expect("dip runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The guide's `Variant.var`, line by line.
fn var_file(flags: u32) -> String {
    format!(
        "Version: 1\nName: Coast\nMapData: Coast.map\nCountries: Coast.cnt\nGame: Coast.gam\nBWMap: CoastBW\nColorMap: Coast\nRegions: Coast.rgn\nInfo: Coast.txt\nBuild: Standard\nCenters: 0\nFlags: {flags}\n"
    )
}

/// Two countries (`Name Adjective Initial Pattern Colour`).
const CNT: &str = "1\n2\nNorthland Northern N Hash Blue\nSouthland Southern S Random Red\n";

/// Four spaces: two home centres with one coast each, a sea, an inland.
const MAP: &str = "Northport, Nlw nor
Southport, Slw sou
Strait, w str
Inland, l inl
-1
nor-mv: inl sou
nor-xc: str sou
sou-mv: inl nor
sou-xc: str nor
inl-mv: nor sou
str-xc: nor sou
-1
nor sou
";

/// Northland's fleet in Northport; Southland's army in Southport and fleet
/// in the Strait.
const GAM: &str = "1\nCoast game\nCoast\nSpring 1901\n0\n2\nNorthland\nnor\nf nor\nSouthland\nsou\na sou f str\n0\n";

/// The guide's `.rgn`: per space `# name`, the unit position (with the
/// special fleet position `xs,ys` "manually inserted" for Northport and
/// Southport, spaces with one coast), the name position, the scanlines.
const RGN: &str = "Variant
Coast
# Northport
250,100,270,60
240,110
1
200 100 100
# Southport
250,300,230,340
240,310
1
200 300 100
# Strait
100,200
110,210
1
50 200 100
# Inland
400,200
410,210
1
350 200 100
";

/// Realpolitik's folder: `Variant Files/Coast/` with the variant, the
/// global `Icon Files` beside `Variant Files`.
fn realpolitik(test: &str, flags: u32) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("dip-rp-guide-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("Variant Files/Coast");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(root.join("Icon Files")).unwrap();
    for (f, t) in [
        ("Coast.var", var_file(flags).as_str()),
        ("Coast.cnt", CNT),
        ("Coast.map", MAP),
        ("Coast.gam", GAM),
        ("Coast.rgn", RGN),
        ("Coast.txt", "Two ports and a strait.\n"),
    ] {
        std::fs::write(dir.join(f), t).unwrap();
    }
    let var = dir.join("Coast.var");
    (root, var)
}

/// A `w` × `h` 24-bit icon of one colour, opaque.
fn solid_ico(w: usize, h: usize, (r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let mut img = Vec::new();
    img.extend_from_slice(&40u32.to_le_bytes());
    img.extend_from_slice(&(w as i32).to_le_bytes());
    img.extend_from_slice(&(2 * h as i32).to_le_bytes());
    img.extend_from_slice(&1u16.to_le_bytes());
    img.extend_from_slice(&24u16.to_le_bytes());
    img.extend_from_slice(&[0; 24]);
    let row = (3 * w).div_ceil(4) * 4;
    for _ in 0..h {
        let mut line: Vec<u8> = (0..w).flat_map(|_| [b, g, r]).collect();
        line.resize(row, 0);
        img.extend(line);
    }
    img.extend(std::iter::repeat_n(0u8, w.div_ceil(32) * 4 * h));
    let mut ico = vec![0, 0, 1, 0, 1, 0, w as u8, h as u8, 0, 0, 1, 0, 24, 0];
    ico.extend_from_slice(&(img.len() as u32).to_le_bytes());
    ico.extend_from_slice(&22u32.to_le_bytes());
    ico.extend_from_slice(&img);
    ico
}

fn render(var: &Path) -> (String, String) {
    let (code, svg, err) = dip(&["render", "start", "--variant", var.to_str().unwrap(), "--no-panel"]);
    assert_eq!(code, 0, "{err}");
    (svg, err)
}

/// The `<g class="unit" …>` of the unit in `province`.
fn unit_tag<'a>(svg: &'a str, province: &str) -> &'a str {
    let at = svg
        .find(&format!(r#"<g class="unit" data-province="{province}""#))
        .unwrap_or_else(|| panic!("no unit in {province}: {svg}"));
    &svg[at..at + svg[at..].find('>').unwrap()]
}

#[test]
fn global_icons_in_realpolitiks_own_folder_were_not_found() {
    // "the global "Icon Files" folder must also be located in the
    // Realpolitik folder": above `Variant Files/`, two levels up. Each
    // country's colour for each unit type, as Realpolitik ships them.
    let (root, var) = realpolitik("global", 0);
    for (f, c) in [
        ("BlueArmy.ico", (0, 0, 150)),
        ("RedArmy.ico", (200, 0, 0)),
        ("RedFleet.ico", (150, 0, 0)),
        ("BlueFleet.ico", (0, 0, 200)),
    ] {
        std::fs::write(root.join("Icon Files").join(f), solid_ico(32, 32, c)).unwrap();
    }
    let (svg, err) = render(&var);
    assert_eq!(svg.matches("<image ").count(), 3, "{err}");
    assert!(!err.contains("drawn as dip's icons"), "{err}");
    // An icon that is not there: the unit is drawn as dip's, and said so.
    std::fs::remove_file(root.join("Icon Files/BlueFleet.ico")).unwrap();
    let (svg, err) = render(&var);
    assert_eq!(svg.matches("<image ").count(), 2, "{err}");
    assert!(
        err.contains("BlueFleet.ico not in") && err.contains("drawn as dip's icons"),
        "{err}"
    );
    // No `Icon Files` anywhere: said once.
    std::fs::remove_dir_all(root.join("Icon Files")).unwrap();
    let (_, err) = render(&var);
    assert!(err.contains("no `Icon Files` folder"), "{err}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_special_fleet_position_of_a_one_coast_space_was_dropped() {
    // "If the optional pair of coordinates xs, ys is given as well, it
    // indicates the special location of a fleet in a coastal region with
    // only one coast."
    let (root, var) = realpolitik("fleet", 0);
    let (svg, _) = render(&var);
    // Northland's fleet stands at xs,ys; Southland's army at x,y.
    assert!(
        unit_tag(&svg, "nor").contains("translate(270,60)"),
        "{}",
        unit_tag(&svg, "nor")
    );
    assert!(
        unit_tag(&svg, "sou").contains("translate(250,300)"),
        "{}",
        unit_tag(&svg, "sou")
    );
    // Kept through dip's own format (`fleet-at=`) and back to a `.rgn`.
    let (code, native, err) = dip(&["variant", "convert", var.to_str().unwrap(), "--to", "native"]);
    assert_eq!(code, 0, "{err}");
    assert!(native.contains("fleet-at=270,60"), "{native}");
    let out = root.join("back");
    let (code, _, err) = dip(&[
        "variant",
        "convert",
        var.to_str().unwrap(),
        "--to",
        "realpolitik",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rgn = std::fs::read_to_string(out.join("coast.rgn")).unwrap();
    assert!(rgn.contains("250,100,270,60\n"), "{rgn}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn large_icons_were_shrunk_to_32_units() {
    // "8: variant uses large icons (icons are not transformed to standard
    // size)": a 48-pixel icon is drawn 48 map pixels wide.
    let (root, var) = realpolitik("large", 8);
    let dir = var.parent().unwrap().join("Icon Files");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("BlueFleet.ico"), solid_ico(48, 48, (0, 0, 200))).unwrap();
    let (svg, _) = render(&var);
    assert!(
        svg.contains(r#"<image x="-24" y="-24" width="48" height="48""#),
        "{svg}"
    );
    // Without the flag, the standard size.
    std::fs::write(&var, var_file(0)).unwrap();
    let (svg, _) = render(&var);
    assert!(!svg.contains(r#"width="48""#), "{svg}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn an_unknown_colour_name_in_the_cnt_file_was_replaced_without_a_word() {
    let (root, var) = realpolitik("colour", 0);
    std::fs::write(var.with_extension("cnt"), CNT.replace("Blue", "Chartreuse")).unwrap();
    let (code, out, err) = dip(&["variant", "check", var.to_str().unwrap()]);
    let text = out + &err;
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("Coast.cnt:3") && text.contains("`Chartreuse`"), "{text}");
    let (_, err) = render(&var);
    assert!(err.contains("`Chartreuse`"), "{err}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn convert_to_realpolitik_left_the_maps_behind() {
    // ColorMap and BWMap name the pictures without their extension; the
    // converted `.var` names `coast` and `coastBW`, and they are there.
    let (root, var) = realpolitik("maps", 0);
    let dir = var.parent().unwrap();
    let bmp = |fill: u8| {
        let mut b = b"BM".to_vec();
        b.extend((54u32 + 4).to_le_bytes());
        b.extend([0u8; 4]);
        b.extend(54u32.to_le_bytes());
        for v in [40u32, 1, 1] {
            b.extend(v.to_le_bytes());
        }
        b.extend(1u16.to_le_bytes());
        b.extend(24u16.to_le_bytes());
        b.extend([0u8; 24]);
        b.extend([fill, fill, fill, 0]);
        b
    };
    std::fs::write(dir.join("Coast.bmp"), bmp(90)).unwrap();
    std::fs::write(dir.join("CoastBW.bmp"), bmp(255)).unwrap();
    let out = root.join("converted");
    let (code, _, err) = dip(&[
        "variant",
        "convert",
        var.to_str().unwrap(),
        "--to",
        "realpolitik",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let var_out = std::fs::read_to_string(out.join("coast.var")).unwrap();
    assert!(
        var_out.contains("ColorMap: coast\n") && var_out.contains("BWMap: coastBW\n"),
        "{var_out}"
    );
    assert_eq!(std::fs::read(out.join("coast.bmp")).unwrap(), bmp(90));
    assert_eq!(std::fs::read(out.join("coastBW.bmp")).unwrap(), bmp(255));
    // A PNG map of dip's own format goes as a BMP, Realpolitik's format.
    let native = root.join("native");
    std::fs::create_dir_all(&native).unwrap();
    let png = {
        let pm = dip_render::raster::decode_picture(&bmp(90)).unwrap();
        dip_render::raster::encode_png(&pm).unwrap()
    };
    std::fs::write(native.join("map.png"), png).unwrap();
    let (_, text, _) = dip(&["variant", "convert", var.to_str().unwrap(), "--to", "native"]);
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("picture "))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "picture colour map.png\n";
    std::fs::write(native.join("coast.variant"), text).unwrap();
    let out = root.join("from-native");
    let (code, _, err) = dip(&[
        "variant",
        "convert",
        native.join("coast.variant").to_str().unwrap(),
        "--to",
        "realpolitik",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read(out.join("coast.bmp")).unwrap();
    assert!(written.starts_with(b"BM"), "a BMP");
    let _ = std::fs::remove_dir_all(root);
}
