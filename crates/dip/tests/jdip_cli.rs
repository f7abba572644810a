//! jDip variant plugins on the command line: `--variants PATH` with
//! `variant list`, `variant check`, `render`, `variant convert --to jdip`
//! and a bad plugin's message. Uses dip-variants' tiny test plugin.

use std::path::PathBuf;
use std::process::Command;

fn dip(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn tiny() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/jdip/tiny")
        .display()
        .to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-jdip-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn list_shows_the_plugins_variants() {
    let (code, out) = dip(&["variant", "list", "--variants", &tiny()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("Tiny Isle") && l.contains("jDip")),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("Tiny Spring")), "{out}");
    let (code, out) = dip(&["variant", "list", "--variants", "/no/such/plugins"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("/no/such/plugins"), "{out}");
}

#[test]
fn check_by_name_lints_and_notes_what_is_not_enforced() {
    let (code, out) = dip(&["variant", "check", "--variants", &tiny(), "Tiny Isle"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no Fleet can reach cov"), "{out}");
    assert!(out.contains("note:") && out.contains("GAME_LENGTH"), "{out}");
    let (code, out) = dip(&["variant", "check", "--variants", &tiny(), "Tiny Spring"]);
    assert_eq!(code, 1, "{out}");
    let (code, out) = dip(&["variant", "check", "--variants", &tiny(), "Nowhere"]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn check_of_a_plugin_path_with_a_name_was_refused_without_variants() {
    let spec = format!("{}#Tiny Spring", tiny());
    let (code, out) = dip(&["variant", "check", &spec]);
    assert!(!out.contains("no such file"), "{out}");
    assert!(out.contains("findings") || out.contains(": ok"), "{out}");
    assert_ne!(code, 2, "{out}");
    // The plugin by its folder name under --variants, too.
    let parent = PathBuf::from(tiny()).parent().unwrap().display().to_string();
    let (code, out) = dip(&["variant", "check", "--variants", &parent, "tiny#Tiny Spring"]);
    assert!(!out.contains("no such file"), "{out}");
    assert_ne!(code, 2, "{out}");
}

#[test]
fn bundled_name_hiding_a_plugin_variant_was_silent() {
    // A plugin with a variant named like a bundled one: the bundled one is
    // used, and a note says how to pick the plugin's.
    let d = tmp("hidden");
    for f in ["variants.xml", "tiny_adjacency.xml", "tiny.svg"] {
        let text = std::fs::read_to_string(PathBuf::from(tiny()).join(f)).unwrap();
        let text = text.replace("name=\"Tiny Spring\"", "name=\"Pure\"");
        std::fs::write(d.join(f), text).unwrap();
    }
    let plugin = d.display().to_string();
    let out_png = d.join("pure.svg").display().to_string();
    let (code, out) = dip(&[
        "render",
        "start",
        "--variants",
        &plugin,
        "--variant",
        "pure",
        "-o",
        &out_png,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("note: `pure` is dip's bundled variant"), "{out}");
    assert!(out.contains("#Pure"), "{out}");
    let (_, out) = dip(&["variant", "check", "--variants", &plugin, "pure"]);
    assert!(out.contains("note: `pure` is dip's bundled variant"), "{out}");
    // Without the plugin, nothing is said.
    let (_, out) = dip(&["variant", "check", "pure"]);
    assert!(!out.contains("bundled variant"), "{out}");
}

#[test]
fn cases_find_the_plugin_variant_named_by_variant_all() {
    let d = tmp("cases");
    let f = d.join("tiny.txt");
    std::fs::write(
        &f,
        "VARIANT_ALL Tiny Spring\n\nCASE T.1 Fleets may not enter the cove\nPRESTATE_SETPHASE Spring 1851, Movement\nPRESTATE\nRedland: F nsea\nBlueland: A hil\nORDERS\nRedland: F nsea-cov\nBlueland: A hil-cov\nPOSTSTATE\nRedland: F nsea\nBlueland: A cov\nEND\n",
    )
    .unwrap();
    let (code, out) = dip(&["cases", "--variants", &tiny(), &f.to_string_lossy()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    // Without the plugin the variant is unknown.
    let (code, out) = dip(&["cases", &f.to_string_lossy()]);
    assert_ne!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn render_start_draws_on_the_plugins_map() {
    let d = tmp("render");
    let png = d.join("map.png");
    let (code, out) = dip(&[
        "render",
        "start",
        "--variants",
        &tiny(),
        "--variant",
        "isle",
        "-o",
        &png.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{out}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let svg = d.join("map.svg");
    let (code, out) = dip(&[
        "render",
        "start",
        "--variants",
        &tiny(),
        "--variant",
        "isle",
        "-o",
        &svg.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    // The plugin's map is the picture under the position, at the size of
    // its view box (300 × 200).
    assert!(
        text.contains(
            "<image width=\"300\" height=\"200\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,"
        ),
        "no map picture of the view box's size"
    );
    // Hills' centre marker at the map's SUPPLY_CENTER point (60, 80), in
    // the view box from (10, 10).
    assert!(
        text.contains("<circle cx=\"50\" cy=\"70\" r=\"5\""),
        "hil's centre is not at its point"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn owner_fills_over_a_plugin_map_changed_colour() {
    // Multiplied over the plugin's coloured land, a power's colour turned
    // into another (Sail Ho's light blue West showed green): over a plugin
    // map the panel's tint is laid over instead.
    let d = tmp("owners");
    let svg = d.join("map.svg");
    let (code, out) = dip(&[
        "render",
        "start",
        "--variants",
        &tiny(),
        "--variant",
        "isle",
        "-o",
        &svg.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let owners = &text[text.find(r#"<g id="owners""#).expect("owners layer")..];
    let owners = &owners[..owners.find("</g>").unwrap()];
    assert!(!owners.contains("multiply"), "{owners}");
    // Redland's province is filled with the colour of its panel swatch.
    let swatch = text
        .split("<rect x=\"14\"")
        .nth(1)
        .and_then(|r| r.split("fill=\"").nth(1))
        .and_then(|f| f.split('"').next())
        .expect("a swatch");
    assert!(owners.contains(&format!("fill=\"{swatch}\"")), "{swatch} in {owners}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn render_with_a_symbol_pack() {
    let d = tmp("symbols");
    let svg = d.join("map.svg");
    let pack = PathBuf::from(tiny()).join("../squares").display().to_string();
    let (code, out) = dip(&[
        "render",
        "start",
        "--variants",
        &tiny(),
        "--variant",
        "isle",
        "--symbols",
        &pack,
        "-o",
        &svg.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{out}");
    let with = std::fs::read_to_string(&svg).unwrap();
    let (code, out) = dip(&[
        "render",
        "start",
        "--variants",
        &tiny(),
        "--variant",
        "isle",
        "-o",
        &svg.to_string_lossy(),
        "--force",
    ]);
    assert_eq!(code, 0, "{out}");
    let without = std::fs::read_to_string(&svg).unwrap();
    // Three units (two armies, a fleet) drawn as pictures; the wing keeps
    // dip's icon.
    assert_eq!(with.matches("<image").count(), without.matches("<image").count() + 3);
    let (code, out) = dip(&[
        "render",
        "start",
        "--variant",
        &tiny(),
        "--symbols",
        "/no/such/Symbols.zip",
    ]);
    assert_eq!(code, 2, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn convert_to_jdip_writes_a_plugin_dip_reads_back() {
    let d = tmp("convert");
    let out_dir = d.join("StandardVariant");
    let (code, out) = dip(&[
        "variant",
        "convert",
        "standard",
        "--to",
        "jdip",
        "-o",
        &out_dir.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{out}");
    for f in ["variants.xml", "standard_adjacency.xml", "standard.svg"] {
        assert!(out_dir.join(f).is_file(), "{f} missing: {out}");
    }
    let (code, out) = dip(&["variant", "check", &out_dir.to_string_lossy()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok (7 powers, 76 provinces, 34 centres)"), "{out}");
    // Writing over it needs --force.
    let (code, out) = dip(&[
        "variant",
        "convert",
        "standard",
        "--to",
        "jdip",
        "-o",
        &out_dir.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_plugin_names_file_and_line() {
    let d = tmp("bad");
    for f in ["variants.xml", "tiny_adjacency.xml", "tiny.svg"] {
        std::fs::copy(PathBuf::from(tiny()).join(f), d.join(f)).unwrap();
    }
    let adj = std::fs::read_to_string(d.join("tiny_adjacency.xml")).unwrap();
    std::fs::write(
        d.join("tiny_adjacency.xml"),
        adj.replace("shortname=\"fen\"", "shortname=\"marsh\""),
    )
    .unwrap();
    let (code, out) = dip(&["variant", "check", &d.to_string_lossy()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("tiny_adjacency.xml:12:") && out.contains("`fen`"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
