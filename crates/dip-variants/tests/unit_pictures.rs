//! `unit-picture POWER TYPE FILE`: pictures of units read beside the variant
//! file, and every bad line named by file and line.

use dip_variants::{parse, VariantError};

const MINI: &str = r#"variant mini
title Mini Map
start 1901 spring
victory 0
power NOR North Northern colour=#123456 initial=N
power SOU South Southern
province aaa Alpha coast center home=NOR at=10,10
province bbb Beta coast center home=SOU at=20,10
province sea "The Sea" sea at=15,0
border A aaa bbb
border F aaa sea bbb
unit-at NOR A aaa
unit-at SOU F bbb
"#;

/// The eight-byte PNG signature and a little: the parser checks only the kind.
const PNG_START: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// A folder of its own for each test, with the given files.
fn folder(test: &str, files: &[(&str, &[u8])]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dip-unit-pictures-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pics")).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    dir
}

/// Parses MINI plus `extra` lines as `DIR/mini.variant`.
fn parse_in(dir: &std::path::Path, extra: &str) -> Result<dip_variants::Variant, VariantError> {
    let file = dir.join("mini.variant");
    parse(&format!("{MINI}{extra}"), file.to_str().unwrap())
}

fn assert_err(e: &VariantError, dir: &std::path::Path, line: usize, needle: &str) {
    let file = dir.join("mini.variant");
    assert_eq!(e.file, file.to_str().unwrap());
    assert_eq!(e.line, line, "{e}");
    assert!(e.message.contains(needle), "`{}` should mention `{needle}`", e.message);
    assert!(
        e.to_string().starts_with(&format!("{}:{line}: ", file.display())),
        "{e}"
    );
}

#[test]
fn unit_pictures_are_read_relative_to_the_variant_file() {
    let dir = folder("ok", &[("pics/nor_a.png", PNG_START), ("sou f.bmp", b"BM1234")]);
    let v = parse_in(
        &dir,
        "unit-picture NOR A pics/nor_a.png\nunit-picture south fleet \"sou f.bmp\"\n",
    )
    .unwrap();
    let m = &v.map;
    let (nor, sou) = (m.find_power("NOR").unwrap(), m.find_power("SOU").unwrap());
    let (a, f) = (dip_core::UnitTypeId(0), dip_core::UnitTypeId(1));
    assert_eq!(m.unit_type(a).letter, 'A');
    assert_eq!(v.unit_pictures.len(), 2);
    let p = v.unit_picture(nor, a).unwrap();
    assert_eq!((p.path.as_str(), p.bytes.as_slice()), ("pics/nor_a.png", PNG_START));
    assert_eq!(v.unit_picture(sou, f).unwrap().bytes, b"BM1234");
    assert!(v.unit_picture(nor, f).is_none());
    // The native text keeps the lines.
    let text = dip_variants::to_native(&v);
    assert!(text.contains("unit-picture NOR A pics/nor_a.png"), "{text}");
    assert!(text.contains("unit-picture SOU F \"sou f.bmp\""), "{text}");
    let back = parse(&text, dir.join("again.variant").to_str().unwrap()).unwrap();
    assert_eq!(back.unit_pictures, v.unit_pictures);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_unit_picture_lines_name_file_and_line() {
    let dir = folder("bad", &[("pics/nor_a.png", PNG_START), ("pics/notes.txt", b"hello")]);
    let n = MINI.lines().count() + 1;
    let cases = [
        ("unit-picture NOR A pics/missing.png", n, "cannot read the unit picture"),
        ("unit-picture XYZ A pics/nor_a.png", n, "unknown power `XYZ`"),
        ("unit-picture NOR Q pics/nor_a.png", n, "unknown unit type `Q`"),
        ("unit-picture NOR A", n, "expected `unit-picture POWER TYPE FILE`"),
        ("unit-picture NOR A pics/notes.txt", n, "not a PNG, BMP, ICO or TIF"),
        (
            "unit-picture NOR A pics/nor_a.png\nunit-picture NOR army pics/nor_a.png",
            n + 1,
            "has a picture already",
        ),
    ];
    for (line, at, needle) in cases {
        let e = parse_in(&dir, &format!("{line}\n")).unwrap_err();
        assert_err(&e, &dir, at, needle);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Realpolitik's icons, `Icon Files/{Colour}{Type}.ico`: the variant's own,
/// else the global ones in the folder next to it (any case).
#[test]
fn realpolitik_icons_become_unit_pictures() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realpolitik/Tiny");
    let root = std::env::temp_dir().join(format!("dip-unit-pictures-{}-rp", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("Tiny");
    std::fs::create_dir_all(dir.join("Icon Files")).unwrap();
    std::fs::create_dir_all(root.join("Icon Files")).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    let ico: &[u8] = &[0, 0, 1, 0, 0, 0];
    // Northland is Blue, Southland Red (Tiny.cnt).
    std::fs::write(dir.join("Icon Files/BlueArmy.ico"), ico).unwrap();
    std::fs::write(root.join("Icon Files/redfleet.ico"), ico).unwrap();
    std::fs::write(root.join("Icon Files/BlueFleet.ico"), ico).unwrap();
    let v = dip_variants::formats::load_any(dir.join("Tiny.var").to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let m = &v.map;
    let got: Vec<(String, char, String)> = v
        .unit_pictures
        .iter()
        .map(|u| {
            let file = std::path::Path::new(&u.path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (m.power(u.power).abbr.clone(), m.unit_type(u.unit_type).letter, file)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("NOR".to_string(), 'A', "BlueArmy.ico".to_string()),
            ("NOR".to_string(), 'F', "BlueFleet.ico".to_string()),
            ("SOU".to_string(), 'F', "redfleet.ico".to_string()),
        ]
    );
    assert_eq!(v.unit_pictures[0].path, "Icon Files/BlueArmy.ico");
    assert!(v.unit_pictures.iter().all(|u| u.bytes == ico));
    let _ = std::fs::remove_dir_all(&root);
}

/// DipWork's picture list (FNPICLIST): `TYPE NATION FILE`, FILE relative to
/// DipWork's folder with `\` separators, in any case; missing pictures left out.
#[test]
fn a_dipwork_picture_list_becomes_unit_pictures() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dipwork/mini");
    let root = std::env::temp_dir().join(format!("dip-unit-pictures-{}-dw", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("VARIANTS/MINI");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(root.join("VARIANTS/UNITPICS")).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    let vt = std::fs::read_to_string(dir.join("VARIANT.TXT")).unwrap();
    std::fs::write(dir.join("VARIANT.TXT"), format!("FNPICLIST piclst64.txt\n{vt}")).unwrap();
    let tif: &[u8] = b"II*\0\x08\0\0\0";
    std::fs::write(root.join("VARIANTS/UNITPICS/NO_A_64.TIF"), tif).unwrap();
    std::fs::write(root.join("VARIANTS/UNITPICS/su f 64.tif"), tif).unwrap();
    let list = "A No VARIANTS\\UNITPICS\\no_a_64.tif\r\nF Su VARIANTS\\UNITPICS\\su f 64.tif\r\nA Su VARIANTS\\UNITPICS\\su_a_64.tif\r\n";
    std::fs::write(dir.join("PICLST64.TXT"), list).unwrap();
    let load = || dip_variants::formats::load_any(dir.to_str().unwrap());
    let v = load().unwrap_or_else(|e| panic!("{e}"));
    let m = &v.map;
    let got: Vec<(String, char, String)> = v
        .unit_pictures
        .iter()
        .map(|u| {
            (
                m.power(u.power).abbr.clone(),
                m.unit_type(u.unit_type).letter,
                u.path.clone(),
            )
        })
        .collect();
    let up = root.join("VARIANTS/UNITPICS");
    assert_eq!(
        got,
        [
            (
                "No".to_string(),
                'A',
                up.join("NO_A_64.TIF").to_string_lossy().into_owned()
            ),
            (
                "Su".to_string(),
                'F',
                up.join("su f 64.tif").to_string_lossy().into_owned()
            ),
        ]
    );
    assert!(v.unit_pictures.iter().all(|u| u.bytes == tif));
    // Bad lines name the list and the line.
    std::fs::write(
        dir.join("PICLST64.TXT"),
        format!("{list}A Xx VARIANTS\\UNITPICS\\no_a_64.tif\n"),
    )
    .unwrap();
    let e = load().unwrap_err();
    assert!(e.file.ends_with("PICLST64.TXT") && e.line == 4, "{e}");
    assert!(e.message.contains("unknown nation `Xx`"), "{e}");
    std::fs::write(dir.join("PICLST64.TXT"), "Q No x.tif\n").unwrap();
    let e = load().unwrap_err();
    assert!(e.line == 1 && e.message.contains("unknown unit type `Q`"), "{e}");
    std::fs::write(dir.join("PICLST64.TXT"), "A No\n").unwrap();
    assert!(load().unwrap_err().message.contains("expected `TYPE NATION FILE`"));
    // A list that is not there costs only the pictures, said in a note
    // naming VARIANT.TXT's line (the whole variant was refused).
    std::fs::remove_file(dir.join("PICLST64.TXT")).unwrap();
    let v = load().unwrap_or_else(|e| panic!("{e}"));
    assert!(v.unit_pictures.is_empty());
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("VARIANT.TXT:1: FNPICLIST piclst64.txt: no such picture list")),
        "{:?}",
        v.notes
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn native_variant_pictures_were_read_from_anywhere_on_the_machine() {
    let outside = folder("outside", &[("pics/x.png", PNG_START)]);
    let dir = folder("confined", &[]);
    let abs = outside.join("pics/x.png");
    let up = format!("../{}/pics/x.png", outside.file_name().unwrap().to_str().unwrap());
    for (extra, says) in [
        (
            format!("unit-picture NOR A \"{}\"\n", abs.display()),
            "no absolute path",
        ),
        (format!("unit-picture NOR A {up}\n"), "no `..`"),
        ("picture colour /etc/passwd\n".to_string(), "no absolute path"),
        (format!("picture bw {up}\n"), "no `..`"),
    ] {
        let e = parse_in(&dir, &extra).unwrap_err();
        assert_err(&e, &dir, MINI.lines().count() + 1, says);
        assert!(e.message.contains("picture"), "{e}");
    }
    // Inside the folder (and below it) is fine.
    std::fs::write(dir.join("pics/x.png"), PNG_START).unwrap();
    parse_in(&dir, "unit-picture NOR A pics/x.png\npicture colour ./pics/map.png\n").unwrap();
}
