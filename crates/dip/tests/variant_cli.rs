//! `dip variant`: list, check (exit status), show, convert and apply.

use std::process::Command;

fn dip(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("dip-variant-cli-{}-{name}", std::process::id()))
}

#[test]
fn list_names_every_bundled_variant() {
    let (code, out) = dip(&["variant", "list"]);
    assert_eq!(code, 0);
    for name in [
        "standard", "1898", "pure", "britain", "chaos", "crowded", "nocoasts", "seismic",
    ] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name} missing:\n{out}");
    }
    assert!(out.contains("chaos              34"), "{out}");
}

#[test]
fn check_exits_1_on_findings_and_0_on_a_clean_map() {
    let (code, out) = dip(&["variant", "check", "standard"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok (7 powers, 76 provinces, 34 centres)"), "{out}");
    let bad = tmp("bad.variant");
    std::fs::write(&bad, "variant bad\npower RED Red Red\nprovince a A land center home=RED\nprovince b B land\nprovince c C land\nborder-oneway A a b\nunit-at RED A a\n").unwrap();
    let (code, out) = dip(&["variant", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("asymmetric-border") && out.contains("unreachable-province"),
        "{out}"
    );
    // A file that does not parse is a finding too, with its line.
    std::fs::write(&bad, "variant bad\nprovince a A swamp\n").unwrap();
    let (code, out) = dip(&["variant", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 1);
    assert!(out.contains("bad.variant:2:"), "{out}");
}

#[test]
fn show_prints_the_field_test() {
    let (code, out) = dip(&["variant", "show", "standard", "Spain"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("province   spa (Spain)") && out.contains("spa/nc") && out.contains("F -> "),
        "{out}"
    );
    let (code, _) = dip(&["variant", "show", "standard", "Atlantis"]);
    assert_eq!(code, 2);
}

#[test]
fn convert_to_dipwork_and_back_keeps_the_map() {
    let dir = tmp("dw");
    let (code, out) = dip(&[
        "variant",
        "convert",
        "crowded",
        "--to",
        "dipwork",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = dip(&["variant", "check", &dir.to_string_lossy()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("11 powers, 76 provinces, 35 centres"), "{out}");
    let (code, out) = dip(&["variant", "convert", "standard", "--to", "klingon"]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn apply_edits_a_map_and_lints_it() {
    let edits = tmp("quake.edits");
    std::fs::write(&edits, "remove-border * naf mao wes tun\n").unwrap();
    let (code, out) = dip(&["variant", "apply", "seismic", &edits.to_string_lossy()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("unreachable-province") && out.contains("variant seismic"),
        "{out}"
    );
}

/// The spellings of a DipWork variant reach the order reader.
#[test]
fn dipwork_spellings_reach_the_order_reader() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../dip-variants/tests/fixtures/dipwork/mini"
    );
    let v = dip_variants::load(dir).unwrap_or_else(|e| panic!("{e}"));
    let mut vocab = dip_text::Vocabulary::new(&v.map);
    vocab
        .apply_lists(&v.word_lists(), true)
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(vocab.nation("Norden"), v.map.find_power("No"));
    assert_eq!(vocab.nation("Sueden"), v.map.find_power("Su"));
    assert_eq!(vocab.unit("Fl"), v.map.find_unit_type("F"));
    assert!(vocab.order_word("hold").is_some());
}

/// Realpolitik's global icons (`Icon Files/` beside the variant's folder)
/// with the `.var` named by a path relative to the working folder: the
/// icon's path was kept relative to the working folder and then joined
/// onto the variant's folder again ("cannot read the unit picture:
/// Tiny/Icon Files/RedArmy.ico").
#[test]
fn realpolitik_global_icons_failed_with_a_relative_var_path() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/realpolitik/Tiny");
    let root = tmp("rp-relative");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("Tiny")).unwrap();
    std::fs::create_dir_all(root.join("Icon Files")).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), root.join("Tiny").join(e.file_name())).unwrap();
    }
    // Southland is Red (Tiny.cnt): the global icons of its army and fleet.
    let ico: &[u8] = &[0, 0, 1, 0, 0, 0];
    std::fs::write(root.join("Icon Files/RedArmy.ico"), ico).unwrap();
    std::fs::write(root.join("Icon Files/RedFleet.ico"), ico).unwrap();
    for var in ["Tiny/Tiny.var", "./Tiny/Tiny.var"] {
        let out = Command::new(env!("CARGO_BIN_EXE_dip"))
            .current_dir(&root)
            .args(["variant", "check", var])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() != Some(2) && !text.contains("cannot read"),
            "{var}: {text}"
        );
    }
    // From inside the variant's folder, the shared folder is `..`.
    let out = Command::new(env!("CARGO_BIN_EXE_dip"))
        .current_dir(root.join("Tiny"))
        .args(["variant", "check", "Tiny.var"])
        .output()
        .unwrap();
    assert!(out.status.code() != Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&root);
}

/// A 32 × 32 24-bit icon of one colour, opaque (its AND mask all clear).
fn solid_ico((r, g, b): (u8, u8, u8)) -> Vec<u8> {
    let (w, h) = (32usize, 32usize);
    let mut img = Vec::new();
    img.extend_from_slice(&40u32.to_le_bytes());
    img.extend_from_slice(&(w as i32).to_le_bytes());
    img.extend_from_slice(&(2 * h as i32).to_le_bytes());
    img.extend_from_slice(&1u16.to_le_bytes());
    img.extend_from_slice(&24u16.to_le_bytes());
    img.extend_from_slice(&[0; 24]);
    for _ in 0..w * h {
        img.extend_from_slice(&[b, g, r]);
    }
    img.extend(std::iter::repeat_n(0u8, 4 * h));
    let mut ico = vec![0, 0, 1, 0, 1, 0, w as u8, h as u8, 0, 0, 1, 0, 24, 0];
    ico.extend_from_slice(&(img.len() as u32).to_le_bytes());
    ico.extend_from_slice(&22u32.to_le_bytes());
    ico.extend_from_slice(&img);
    ico
}

/// The global-icons test above used icons without a picture in them and
/// only ran `variant check`: icons that decode are drawn on the map, each
/// unit of the red country in its type's icon.
#[test]
fn realpolitik_global_icons_were_never_seen_drawn() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/realpolitik/Tiny");
    let root = tmp("rp-drawn");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("Tiny")).unwrap();
    std::fs::create_dir_all(root.join("Icon Files")).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), root.join("Tiny").join(e.file_name())).unwrap();
    }
    // Southland (Red) starts with an army in sou and a fleet in str.
    let (army, fleet) = ((250, 0, 250), (0, 250, 250));
    std::fs::write(root.join("Icon Files/RedArmy.ico"), solid_ico(army)).unwrap();
    std::fs::write(root.join("Icon Files/RedFleet.ico"), solid_ico(fleet)).unwrap();
    let render = |out: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_dip"))
            .current_dir(&root)
            .args(["render", "start", "--variant", "Tiny/Tiny.var", "--no-panel", "-o", out])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    render("map.svg");
    let svg = std::fs::read_to_string(root.join("map.svg")).unwrap();
    assert_eq!(svg.matches("<image ").count(), 2, "the two red units are icons");
    render("map.png");
    let png = std::fs::read(root.join("map.png")).unwrap();
    let pm = dip_render::raster::decode_png(&png).unwrap();
    let count = |(r, g, b): (u8, u8, u8)| {
        pm.pixels()
            .iter()
            .filter(|p| {
                let c = p.demultiply();
                c.alpha() == 255 && c.red() == r && c.green() == g && c.blue() == b
            })
            .count()
    };
    // Each icon is drawn at some size: a good many pixels of its colour.
    assert!(count(army) > 50, "army icon pixels: {}", count(army));
    assert!(count(fleet) > 50, "fleet icon pixels: {}", count(fleet));
    let _ = std::fs::remove_dir_all(&root);
}
