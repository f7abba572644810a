//! jDip variant plugins: the tiny plugin of `examples/jdip/tiny` (written for
//! these tests) read as a folder and as a zip built here, linted, written
//! back, and bad plugins reported with file and line.

use dip_variants::formats::{self, Format};
use dip_variants::jdip::{self, Plugin};
use std::io::Write;
use std::path::{Path, PathBuf};

fn tiny_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/jdip/tiny")
}

fn tiny_files() -> Vec<(String, Vec<u8>)> {
    ["variants.xml", "tiny_adjacency.xml", "tiny.svg"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read(tiny_dir().join(n)).unwrap()))
        .collect()
}

/// A zip of the given files (deflated), as jDip's plugins are distributed.
fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (n, b) in files {
        w.start_file(n.as_str(), opts).unwrap();
        w.write_all(b).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-jdip-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn folder_plugin_lists_its_variants_and_aliases() {
    let p = Plugin::open(&tiny_dir()).unwrap();
    let names: Vec<&str> = p.variants.iter().map(|v| v.0.as_str()).collect();
    assert_eq!(names, ["Tiny Isle", "Tiny Spring"]);
    assert_eq!(p.find("ISLE"), Some("Tiny Isle"));
    assert_eq!(p.find("tiny spring"), Some("Tiny Spring"));
    assert_eq!(p.find("nowhere"), None);
}

#[test]
fn folder_plugin_reads_map_rules_and_position() {
    let p = Plugin::open(&tiny_dir()).unwrap();
    let jv = p.variant("tiny").unwrap();
    let m = &jv.model;
    assert_eq!(m.name, "Tiny_Isle");
    assert_eq!(
        (m.year, m.season, m.kind),
        (1850, dip_core::Season::Fall, dip_core::PhaseKind::Movement)
    );
    assert_eq!(m.victory, 3);
    assert_eq!(m.build_rule, dip_core::map::BuildRule::Chaos);
    let powers: Vec<&str> = m.powers.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(powers, ["Redland", "Blueland", "Greyland"]);
    assert_eq!(m.powers[0].aliases, ["Reds"]);
    // Colours from the map's POWERCOLOR; Blueland has none.
    assert_eq!(m.powers[0].colour.as_deref(), Some("#c03020"));
    assert_eq!(m.powers[1].colour, None);
    let v = m.build("tiny").unwrap();
    let map = &v.map;
    assert_eq!(map.supply_centers().len(), 4);
    assert_eq!(map.find_province("highlands"), map.find_province("hil"));
    // Three unit types: army, fleet, wing.
    let letters: Vec<char> = map.unit_types().iter().map(|u| u.letter).collect();
    assert_eq!(letters, ['A', 'F', 'W']);
    // The split coast and the fleet on its north coast.
    let cap = map.find_province("cap").unwrap();
    assert_eq!(map.coasts(cap).len(), 2);
    let units: Vec<String> = v
        .start
        .units()
        .map(|(_, u)| {
            format!(
                "{} {} {}",
                map.power(u.power).name,
                map.unit_type(u.kind).letter,
                map.region_name(u.region)
            )
        })
        .collect();
    assert!(units.contains(&"Blueland F cap/nc".to_string()), "{units:?}");
    assert!(units.contains(&"Redland W nsea".to_string()), "{units:?}");
    // Points from the SVG, shifted by the view box origin (10, 10).
    let capnc = m.provinces.iter().find(|p| p.abbr == "cap").unwrap();
    assert_eq!(
        capnc.coasts.iter().find(|c| c.0 == "nc").unwrap().1,
        Some((150.0, 60.0))
    );
    assert_eq!(m.provinces[0].at, Some((50.0, 50.0)));
    assert_eq!(m.provinces[0].label, Some((35.0, 30.0)));
    assert_eq!(jv.unit_style.as_deref(), Some("simple"));
}

fn edge(m: &dip_variants::Model, letter: char, from: &str, to: &str) -> bool {
    let ut = m.unit_types.iter().position(|u| u.letter == letter).unwrap();
    m.edges.iter().any(|e| e.ut == ut && e.from == from && e.to == to)
}

#[test]
fn inactive_power_units_were_dropped_and_centres_made_neutral() {
    // jDip keeps an inactive power's units, holding, and its centres.
    let v = Plugin::open(&tiny_dir())
        .unwrap()
        .variant("tiny")
        .unwrap()
        .model
        .build("tiny")
        .unwrap();
    let map = &v.map;
    let grey = map.find_power("Greyland").expect("the inactive power is a power");
    let cov = map.find_province("cov").unwrap();
    assert!(map.is_home(cov, grey));
    assert_eq!(v.start.owner(cov), Some(grey));
    assert_eq!(v.start.unit(cov).map(|u| u.power), Some(grey));
    // Nobody orders it: it holds.
    let outcome = dip_core::adjudicate(map, &v.start, &[], &v.rules);
    let next = dip_core::advance(map, &v.start, &outcome);
    assert_eq!(next.unit(cov).map(|u| u.power), Some(grey));
}

#[test]
fn unit_type_border_removes_fleet_moves_both_ways() {
    let jv = Plugin::open(&tiny_dir()).unwrap().variant("Tiny Isle").unwrap();
    let m = &jv.model;
    assert!(!edge(m, 'F', "nsea", "cov"));
    assert!(!edge(m, 'F', "cov", "nsea"));
    assert!(!edge(m, 'F', "cap/nc", "cov"));
    // Armies still cross it; fleets elsewhere are untouched.
    assert!(edge(m, 'A', "hil", "cov"));
    assert!(edge(m, 'F', "nsea", "cap/nc"));
    assert!(edge(m, 'F', "ssea", "cap/sc"));
    // Wings fly to every touching province, whatever the border says of fleets.
    assert!(edge(m, 'W', "nsea", "cov"));
    assert!(edge(m, 'W', "hil", "cap"));
}

#[test]
fn conditional_border_becomes_a_border_rule_and_convoyable_coast_read() {
    let jv = Plugin::open(&tiny_dir()).unwrap().variant("Tiny Isle").unwrap();
    assert_eq!(jv.borders.len(), 1);
    assert_eq!(jv.borders[0].0, "fen");
    assert_eq!(jv.borders[0].1.season, "Spring");
    assert!(
        edge(&jv.model, 'A', "hil", "fen"),
        "a seasonal border is not a missing edge"
    );
    let rules: Vec<String> = jv.model.border_rules.iter().map(|r| r.to_line()).collect();
    assert_eq!(rules, ["border-rule fen seasons=spring"]);
    assert_eq!(jv.convoyable_coasts, ["cov"]);
    assert_eq!(jv.model.convoy_coasts, ["cov"]);
    let notes = jv.notes.join("\n");
    assert!(!notes.contains("springShut"), "{notes}");
    assert!(notes.contains("GAME_LENGTH"), "{notes}");
    assert!(notes.contains("Greyland is inactive"), "{notes}");
}

#[test]
fn aliases_and_altnames_were_split_at_spaces() {
    // jDip separates them by commas only: `sail ho 2` is one alias, and
    // `ho` names nothing.
    let files = with_file("variants.xml", |t| {
        t.replace("aliases=\"tiny,isle\"", "aliases=\"tiny isle, small island\"")
            .replace("altnames=\"Reds\"", "altnames=\"Red Land, Reds\"")
    });
    let p = Plugin::from_memory("x.zip", files).unwrap();
    assert_eq!(p.find("tiny isle"), Some("Tiny Isle"));
    assert_eq!(p.find("small island"), Some("Tiny Isle"));
    assert_eq!(p.find("tiny"), None);
    assert_eq!(p.find("island"), None);
    let m = p.variant("small island").unwrap().model;
    assert_eq!(m.powers[0].aliases, ["Red Land", "Reds"]);
}

#[test]
fn province_bordering_only_itself_was_read_as_land() {
    // jDip's standard map gives Switzerland `<ADJACENCY type="mv" refs="swi"/>`:
    // no unit can enter it, so it is impassable, not unreachable land.
    let files = with_file("tiny_adjacency.xml", |t| {
        t.replace(
            "</PROVINCES>",
            "<PROVINCE shortname=\"swi\" fullname=\"Switzerland\"><ADJACENCY type=\"mv\" refs=\"swi\"/></PROVINCE>\n</PROVINCES>",
        )
    });
    let m = Plugin::from_memory("x.zip", files)
        .unwrap()
        .variant("tiny")
        .unwrap()
        .model;
    let swi = m.provinces.iter().find(|p| p.abbr == "swi").unwrap();
    assert_eq!(swi.terrain, dip_core::Terrain::Impassable);
}

fn islands_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../cases/jdip/islands")
}

#[test]
fn island_with_an_army_line_to_itself_was_read_as_sea() {
    // jDip marks an island by an army line beside its fleet line: to the
    // island itself (Loeb9's and Modern's Ireland) or empty (Ancient
    // Mediterranean's Crete). Alone, such a line is Switzerland.
    let m = Plugin::open(&islands_dir()).unwrap().variant("Islands").unwrap().model;
    let terrain = |abbr: &str| m.provinces.iter().find(|p| p.abbr == abbr).unwrap().terrain;
    assert_eq!(terrain("isl"), dip_core::Terrain::Coast);
    assert_eq!(terrain("roc"), dip_core::Terrain::Coast);
    assert_eq!(terrain("alp"), dip_core::Terrain::Impassable);
    assert_eq!(terrain("wse"), dip_core::Terrain::Sea);
    assert_eq!(m.convoy_coasts, ["roc"]);
    let v = m.build("islands").unwrap();
    let map = &v.map;
    let army = map.find_unit_type("A").unwrap();
    let (isl, por) = (map.find_province("isl").unwrap(), map.find_province("por").unwrap());
    assert!(
        map.allows(map.main_region(isl), army),
        "an army may stand on the island"
    );
    // No army walks there: a line to itself is no border.
    assert!(!map.reaches(army, map.main_region(por), isl));
    assert!(map.edges(army, map.main_region(isl)).is_empty());
}

#[test]
fn zip_plugin_reads_as_the_folder() {
    let dir = temp("zip");
    let z = dir.join("TinyVariant.zip");
    std::fs::write(&z, zip_of(&tiny_files())).unwrap();
    let from_zip = Plugin::open(&z).unwrap().variant("tiny").unwrap();
    let from_dir = Plugin::open(&tiny_dir()).unwrap().variant("tiny").unwrap();
    assert_eq!(from_zip.model.to_native(), from_dir.model.to_native());
    assert_eq!(from_zip.svg.as_ref().map(|s| &s.1), from_dir.svg.as_ref().map(|s| &s.1));
    assert!(from_zip.svg.unwrap().0.ends_with("TinyVariant.zip!/tiny.svg"));
    // In a folder inside the zip, too.
    let nested: Vec<(String, Vec<u8>)> = tiny_files()
        .into_iter()
        .map(|(n, b)| (format!("tiny/{n}"), b))
        .collect();
    std::fs::write(&z, zip_of(&nested)).unwrap();
    let v = Plugin::open(&z).unwrap().variant("Tiny Spring").unwrap();
    assert_eq!(v.model.year, 1851);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plugin_paths_load_by_path_and_by_name() {
    let dir = temp("paths");
    std::fs::write(dir.join("TinyVariant.zip"), zip_of(&tiny_files())).unwrap();
    std::fs::write(
        dir.join("SimpleSymbols.zip"),
        zip_of(&[("symbols.svg".into(), b"<svg/>".to_vec())]),
    )
    .unwrap();
    let found = jdip::plugin_paths(std::slice::from_ref(&dir));
    assert_eq!(
        found,
        [dir.join("TinyVariant.zip")],
        "symbol packs are not variant plugins"
    );
    // A path: the default variant, or PATH#NAME.
    let p = dir.join("TinyVariant.zip").display().to_string();
    assert_eq!(dip_variants::load(&p).unwrap().name, "Tiny_Isle");
    assert_eq!(
        dip_variants::load(&format!("{p}#Tiny Spring"))
            .unwrap()
            .start
            .phase
            .year,
        1851
    );
    assert_eq!(formats::detect(&p), Some(Format::Jdip));
    // By name once the folder is a search path.
    assert!(dip_variants::load("Tiny Spring").is_err());
    let search = [dir.clone()];
    assert_eq!(
        dip_variants::load_in("Tiny Spring", &search).unwrap().start.phase.year,
        1851
    );
    assert_eq!(dip_variants::load_in("isle", &search).unwrap().name, "Tiny_Isle");
    // Bundled names come first.
    assert_eq!(dip_variants::load_in("standard", &search).unwrap().name, "standard");
}

#[test]
fn tiny_plugin_lints_with_one_finding() {
    let jv = Plugin::open(&tiny_dir()).unwrap().variant("tiny").unwrap();
    let findings = dip_variants::lint::lint_model(&jv.model);
    assert!(findings.is_empty(), "{findings:?}");
    let v = jv.model.build("tiny").unwrap();
    let findings: Vec<String> = dip_variants::lint::lint(&v).iter().map(|f| f.to_string()).collect();
    // The border that keeps fleets out of the cove leaves a coast no fleet reaches.
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0].contains("no Fleet can reach cov"), "{findings:?}");
}

#[test]
fn converted_plugin_reads_back_identically() {
    let border_rules = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cases/variants/border-rules.variant")
        .to_string_lossy()
        .to_string();
    for spec in ["standard", "1898", "chaos", border_rules.as_str()] {
        let (m, _) = formats::read_model(spec).unwrap();
        round_trip(&m, spec);
    }
    // The tiny plugin: the wings' flights into the cove come from fleet
    // borders that its noFleet border closes; dip writes no such border
    // pair back, so exactly those flights are reported lost.
    let jv = Plugin::open(&tiny_dir()).unwrap().variant("tiny").unwrap();
    assert_eq!(
        formats::lost_in(&jv.model, Format::Jdip),
        ["W cov-nsea", "W cov-ssea", "W nsea-cov", "W ssea-cov"]
    );
    let mut m = jv.model.clone();
    m.edges.retain(|e| {
        !(e.ut == 2 && (e.from == "cov" || e.to == "cov") && (e.from.ends_with("sea") || e.to.ends_with("sea")))
    });
    round_trip(&m, "tiny without the closed flights");
}

#[test]
fn majority_victory_was_left_out_of_written_plugins() {
    // jDip refuses a variant without VICTORYCONDITIONS: "more than half of
    // the centres" is written as the number.
    let (m, _) = formats::read_model("ancmed").unwrap();
    assert_eq!(m.victory, 0);
    let centres = m.provinces.iter().filter(|p| p.center).count();
    let files = jdip::write(&m);
    assert!(
        files[0]
            .1
            .contains(&format!("<WINNING_SUPPLY_CENTERS value=\"{}\"/>", centres / 2 + 1)),
        "{}",
        files[0].1
    );
}

#[test]
fn islands_were_written_without_their_army_line() {
    // jDip knows land only by an `mv` line: without one, Baleares and Crete
    // were seas to jDip (which refused the convoyable Baleares) and to dip.
    let (m, _) = formats::read_model("ancmed").unwrap();
    let files = jdip::write(&m);
    for island in ["bal", "cre"] {
        let block = files[1]
            .1
            .split("<PROVINCE ")
            .find(|b| b.starts_with(&format!("shortname=\"{island}\"")))
            .unwrap();
        assert!(
            block.contains(&format!("<ADJACENCY type=\"mv\" refs=\"{island}\"/>")),
            "{block}"
        );
    }
}

#[test]
fn every_bundled_variant_keeps_its_terrain_and_convoy_coasts_as_a_plugin() {
    // Nine of them lost islands (Crete, Ireland, Ceylon, ...) to the sea.
    let places = |v: &dip_variants::Variant| -> Vec<String> {
        let map = &v.map;
        map.province_ids()
            .map(|p| {
                let convoy = map.province(p).terrain == dip_core::Terrain::Coast && map.is_convoy_space(p);
                format!(
                    "{} {:?}{}",
                    map.province(p).abbr,
                    map.province(p).terrain,
                    if convoy { " convoys" } else { "" }
                )
            })
            .collect()
    };
    for (name, _) in dip_variants::bundled() {
        let (m, _) = formats::read_model(name).unwrap();
        let files = jdip::write(&m);
        let plugin = Plugin::from_memory("out", files.into_iter().map(|(n, t)| (n, t.into_bytes())).collect()).unwrap();
        let back = plugin.variant(&plugin.variants[0].0).unwrap().model.build("back");
        let back = back.unwrap_or_else(|e| panic!("{name}: the written plugin does not read back: {e}"));
        assert_eq!(places(&back), places(&m.build(name).unwrap()), "{name}");
    }
}

#[test]
fn realpolitik_variant_with_an_island_did_not_read_back_as_a_plugin() {
    let var = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/variants/tiny-realpolitik/Tiny.var");
    let (m, _) = formats::read_model(&var.to_string_lossy()).unwrap();
    let lost = formats::lost_in(&m, Format::Jdip);
    assert!(!lost.iter().any(|l| l.contains("do not read back")), "{lost:?}");
    // Only what jDip cannot say (the `mx` and `hx` borders) is lost.
    assert!(lost.iter().all(|l| l.contains(':') || l.starts_with("W ")), "{lost:?}");
}

#[test]
fn plugin_variant_was_written_under_dips_short_name() {
    // `Modern (with Wings)` came back as `Modern__with_Wings_`: jDip's users
    // know the plugin's name. It still reads back to the same short name.
    let jv = Plugin::open(&tiny_dir()).unwrap().variant("tiny").unwrap();
    let files = jdip::write(&jv.model);
    assert!(files[0].1.contains("<VARIANT name=\"Tiny Isle\""), "{}", files[0].1);
    let plugin = Plugin::from_memory("out", files.into_iter().map(|(n, t)| (n, t.into_bytes())).collect()).unwrap();
    assert_eq!(plugin.variant("Tiny Isle").unwrap().model.name, "Tiny_Isle");
    assert_eq!(
        plugin.find("tiny_isle"),
        Some("Tiny Isle"),
        "dip's short name finds it too"
    );
    // A variant whose name was not made from its title keeps its name.
    let (m, _) = formats::read_model("standard").unwrap();
    assert!(jdip::write(&m)[0].1.contains("<VARIANT name=\"standard\""));
}

#[test]
fn rotated_label_was_read_at_the_maps_origin() {
    // jDip's rotated labels are placed by their transform, x and y being 0
    // (Loeb9's `<text transform="translate(324.7,543), rotate(-80)" x="0" y="0">crs</text>`).
    let files = with_file("tiny.svg", |t| {
        t.replace(
            "<text x=\"45\" y=\"140\">fen</text>",
            "<text x=\"45\" y=\"140\">fen</text><g transform=\"translate(5,0)\"><text transform=\"translate(100,150), rotate(-80)\" x=\"0\" y=\"0\">cov</text></g>",
        )
    });
    let m = Plugin::from_memory("x.zip", files)
        .unwrap()
        .variant("tiny")
        .unwrap()
        .model;
    let cov = m.provinces.iter().find(|p| p.abbr == "cov").unwrap();
    // (105, 150) in the view box from (10, 10).
    assert_eq!(cov.label, Some((95.0, 140.0)));
}

#[test]
fn supply_centre_points_are_read_from_the_map() {
    let (file, svg) = Plugin::open(&tiny_dir()).unwrap().variant("tiny").unwrap().svg.unwrap();
    let points = jdip::svg_centre_points(&svg, &file).unwrap();
    // SUPPLY_CENTER x="60" y="80", in the view box from (10, 10).
    assert!(points.contains(&("hil".to_string(), (50.0, 70.0))), "{points:?}");
    assert_eq!(points.len(), 4, "{points:?}");
}

fn round_trip(m: &dip_variants::Model, what: &str) {
    let files = jdip::write(m);
    for (name, text) in &files {
        roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{what}: {name} is not well-formed: {e}"));
    }
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names[0], "variants.xml");
    assert!(files[0].1.contains("<VARIANTS>"), "{what}");
    assert_eq!(files[0].1.matches("<INITIALSTATE ").count(), m.units.len(), "{what}");
    assert!(files[1].1.contains("<PROVINCES>") && files[1].1.contains("<ADJACENCY type=\"mv\""));
    for layer in ["MapLayer", "UnitLayer", "MouseLayer", "jdipNS:PROVINCE_DATA"] {
        assert!(files[2].1.contains(layer), "{what}: {layer}");
    }
    assert!(
        formats::lost_in(m, Format::Jdip).is_empty(),
        "{what}: {:?}",
        formats::lost_in(m, Format::Jdip)
    );
    let plugin = Plugin::from_memory("out", files.into_iter().map(|(n, t)| (n, t.into_bytes())).collect()).unwrap();
    let back = plugin.variant(&m.name).unwrap().model.build("back").unwrap();
    let before = m.build("before").unwrap();
    assert_eq!(summary(&back), summary(&before), "{what}");
}

/// Everything a game depends on, by names.
fn summary(v: &dip_variants::Variant) -> String {
    let map = &v.map;
    // jDip needs a number: "more than half" comes back as that number.
    let mut out = vec![format!(
        "start {:?} victory {} build {:?}",
        v.start.phase,
        map.victory_centers(),
        map.build_rule
    )];
    let mut rules: Vec<String> = map
        .border_rules()
        .iter()
        .map(|r| dip_variants::MBorderRule::from_rule(map, r).to_line())
        .collect();
    rules.sort();
    out.extend(rules);
    for p in map.powers() {
        out.push(format!("power {} {}", p.abbr, p.name));
    }
    for pid in map.province_ids() {
        let p = map.province(pid);
        let homes: Vec<String> = p.homes.iter().map(|h| map.power(h).abbr.clone()).collect();
        out.push(format!(
            "{} {} {:?} {} {:?} {:?}",
            p.abbr,
            p.name,
            p.terrain,
            p.supply_center,
            homes,
            map.coasts(pid).len()
        ));
    }
    let mut edges = Vec::new();
    for ut in map.unit_type_ids() {
        for r in 0..map.num_regions() {
            let from = dip_core::RegionId(r as u16);
            for e in map.edges(ut, from) {
                edges.push(format!(
                    "{} {}-{}",
                    map.unit_type(ut).letter,
                    map.region_name(from),
                    map.region_name(e.to)
                ));
            }
        }
    }
    edges.sort();
    out.extend(edges);
    let mut units: Vec<String> = v
        .start
        .units()
        .map(|(_, u)| {
            format!(
                "{} {} {}",
                map.power(u.power).abbr,
                map.unit_type(u.kind).letter,
                map.region_name(u.region)
            )
        })
        .collect();
    units.sort();
    out.extend(units);
    for &c in map.supply_centers() {
        out.push(format!(
            "owner {} {:?}",
            map.province(c).abbr,
            v.start.owner(c).map(|o| map.power(o).abbr.clone())
        ));
    }
    out.join("\n")
}

fn with_file(name: &str, edit: impl Fn(&str) -> String) -> Vec<(String, Vec<u8>)> {
    tiny_files()
        .into_iter()
        .map(|(n, b)| {
            if n == name {
                (n, edit(&String::from_utf8(b).unwrap()).into_bytes())
            } else {
                (n, b)
            }
        })
        .collect()
}

fn zip_error(files: Vec<(String, Vec<u8>)>) -> dip_variants::VariantError {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = temp(&format!("bad{}", N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let z = dir.join("Bad.zip");
    std::fs::write(&z, zip_of(&files)).unwrap();
    let e = Plugin::open(&z).and_then(|p| p.variant("tiny")).unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    e
}

#[test]
fn centre_missing_from_the_adjacency_names_the_zip_entry_and_line() {
    let e = zip_error(with_file("variants.xml", |t| {
        t.replace("province=\"fen\" owner", "province=\"bog\" owner")
    }));
    assert!(e.file.ends_with("Bad.zip!/variants.xml"), "{e}");
    assert_eq!(e.line, 28, "{e}");
    assert!(
        e.message.contains("`bog`") && e.message.contains("tiny_adjacency.xml"),
        "{e}"
    );
}

#[test]
fn missing_adjacency_file_of_a_folder_named_its_path_twice() {
    let d = temp("noadj");
    for (n, b) in tiny_files() {
        if n != "tiny_adjacency.xml" {
            std::fs::write(d.join(&n), b).unwrap();
        }
    }
    let e = Plugin::open(&d).unwrap().variant("tiny").unwrap_err();
    assert!(e.file.ends_with("tiny_adjacency.xml"), "{e}");
    assert_eq!(e.message, "no such file in the plugin");
    assert_eq!(e.to_string().matches("tiny_adjacency.xml").count(), 1, "{e}");
}

#[test]
fn svg_without_layers_names_the_svg() {
    let e = zip_error(with_file("tiny.svg", |t| t.replace("id=\"UnitLayer\"", "id=\"Units\"")));
    assert!(e.file.ends_with("Bad.zip!/tiny.svg"), "{e}");
    assert!(e.line > 0 && e.message.contains("UnitLayer"), "{e}");
    let e = zip_error(with_file("tiny.svg", |t| t.replace("PROVINCE_DATA", "DATA")));
    assert!(e.message.contains("PROVINCE_DATA"), "{e}");
}

#[test]
fn oversized_zip_entry_is_refused_before_unpacking() {
    let mut files = tiny_files();
    files[2]
        .1
        .extend(std::iter::repeat_n(b' ', (jdip::MAX_ENTRY_BYTES + 1) as usize));
    let e = zip_error(files);
    assert!(e.file.ends_with("Bad.zip!/tiny.svg"), "{e}");
    assert!(e.message.contains("MiB"), "{e}");
}

#[test]
fn malformed_xml_and_unknown_references_name_file_and_line() {
    let e = zip_error(with_file("tiny_adjacency.xml", |t| {
        t.replace("refs=\"fen cap cov\"/>", "refs=\"fen cap cov\">")
    }));
    assert!(
        e.file.ends_with("tiny_adjacency.xml") && e.line > 0 && e.message.contains("XML"),
        "{e}"
    );
    let e = zip_error(with_file("tiny_adjacency.xml", |t| {
        t.replace("refs=\"cap-sc cov nsea\"", "refs=\"cap-sc cove nsea\"")
    }));
    assert!(e.message.contains("`cove`") && e.line == 30, "{e}");
    let e = zip_error(with_file("tiny_adjacency.xml", |t| {
        t.replace("borders=\"noFleet\"", "borders=\"noBoats\"")
    }));
    assert!(e.message.contains("noBoats"), "{e}");
    let e = zip_error(with_file("variants.xml", |t| {
        t.replace("Fall, 1850, Movement", "sometime")
    }));
    assert!(e.message.contains("sometime") && e.line == 20, "{e}");
    let e = zip_error(with_file("variants.xml", |t| {
        t.replace("unit=\"wing\"", "unit=\"zeppelin\"")
    }));
    assert!(e.message.contains("zeppelin"), "{e}");
    let e = zip_error(with_file("variants.xml", |t| {
        t.replace("adjacencyURI=\"tiny_adjacency.xml\"", "adjacencyURI=\"../etc/passwd\"")
    }));
    assert!(e.message.contains("inside the plugin"), "{e}");
}

#[test]
fn not_a_plugin_is_an_error() {
    let dir = temp("notplugin");
    let z = dir.join("Empty.zip");
    std::fs::write(&z, b"PK not really").unwrap();
    assert!(Plugin::open(&z).unwrap_err().message.contains("not a zip"));
    std::fs::write(&z, zip_of(&[("readme.txt".into(), b"hi".to_vec())])).unwrap();
    assert!(Plugin::open(&z).unwrap_err().message.contains("variants.xml"));
    assert!(Plugin::open(Path::new(&dir))
        .unwrap_err()
        .message
        .contains("variants.xml"));
    let _ = std::fs::remove_dir_all(&dir);
}
