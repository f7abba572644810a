//! Foreign formats: DipWork and DPjudge read and written, round trips, the
//! standard map through every format, errors with file and line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dip_core::{PhaseKind, Season};
use dip_variants::formats::{self, Format};
use dip_variants::{dipwork, dpjudge, Model, Variant};

fn fixture(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
        .to_string_lossy()
        .to_string()
}

/// Every border of every unit type, by names (`A lon yor`), with flags.
fn adjacency(v: &Variant) -> BTreeSet<String> {
    let map = &v.map;
    let mut out = BTreeSet::new();
    for ut in map.unit_type_ids() {
        for r in 0..map.num_regions() {
            let from = dip_core::RegionId(r as u16);
            for e in map.edges(ut, from) {
                out.insert(format!(
                    "{} {} {} {}",
                    map.unit_type(ut).letter,
                    map.region_name(from).to_lowercase(),
                    map.region_name(e.to).to_lowercase(),
                    e.flags.0
                ));
            }
        }
    }
    out
}

fn centres(v: &Variant) -> BTreeSet<String> {
    v.map
        .supply_centers()
        .iter()
        .map(|&c| {
            let p = v.map.province(c);
            let homes: Vec<String> = p.homes.iter().map(|h| v.map.power(h).name.to_lowercase()).collect();
            format!("{} {}", p.abbr.to_lowercase(), homes.join(","))
        })
        .collect()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-variants-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn dipwork_sample_reads_with_subfields_renames_convoy_unit_and_all_homes() {
    let v = formats::load_any(&fixture("dipwork/mini")).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        dip_variants::lint::lint(&v).is_empty(),
        "{:?}",
        dip_variants::lint::lint(&v)
    );
    let map = &v.map;
    let mit = map.find_province("Mitte").unwrap();
    assert!(map.province(mit).home_of_all);
    assert_eq!(map.coasts(mit).len(), 2);
    // `- WSe Mit - MiW ja`: a fleet moving to Mit goes to its west coast.
    let f = map.find_unit_type("F").unwrap();
    let wse = map.main_region(map.find_province("WSe").unwrap());
    let miw = map.find_coast(mit, "wc").unwrap();
    assert!(map.adjacent(f, wse, miw));
    // `- Nrd Mit ja imp ja`: no fleet border to the whole province.
    assert!(!map.adjacent(
        f,
        map.main_region(map.find_province("Nrd").unwrap()),
        map.main_region(mit)
    ));
    // The third column is the convoy pseudo-unit (CONVOY_RELEVANT_UNITNR 3).
    assert_eq!(map.unit_types().len(), 3);
    assert_eq!(v.convoy_unit.map(|u| u.index()), Some(2));
    assert!(map.convoy_adjacent(mit, map.find_province("WSe").unwrap()));
    // Switches become rules.
    assert_eq!(v.rules.ix3, dip_core::rules::SelfSupport::SameWinner);
    // Synonyms: the first is the full name, the others aliases.
    assert_eq!(map.province(mit).name, "Mitte");
    assert_eq!(map.find_province("Middle"), Some(mit));
    // GAME.TXT: the starting position.
    assert_eq!(v.start.units().count(), 2);
}

#[test]
fn dipwork_to_native_to_dipwork_gives_the_same_variant() {
    let (m, f) = formats::read_model(&fixture("dipwork/mini")).unwrap();
    assert_eq!(f, Format::DipWork);
    let v1 = m.build("mini").unwrap();
    // Through the native format ...
    let native = dip_variants::to_native(&v1);
    let v2 = dip_variants::parse(&native, "mini.variant").unwrap();
    // ... and back to DipWork files.
    let out = tmp("dw");
    formats::write(&Model::from_variant(&v2), Format::DipWork, &out).unwrap();
    let (m3, _) = formats::read_model(&out.to_string_lossy()).unwrap();
    let v3 = m3.build("again").unwrap();
    assert_eq!(adjacency(&v1), adjacency(&v3));
    assert_eq!(centres(&v1), centres(&v3));
    assert_eq!(dip_variants::to_native(&v1), dip_variants::to_native(&v3));
    // Writing the re-read files again gives the same text.
    let out2 = tmp("dw2");
    formats::write(&m3, Format::DipWork, &out2).unwrap();
    for f in ["VARIANT.TXT", "FIELDS.TXT", "GAME.TXT"] {
        assert_eq!(
            std::fs::read_to_string(out.join(f)).unwrap(),
            std::fs::read_to_string(out2.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn the_standard_map_reads_the_same_from_every_format() {
    let std = dip_variants::standard();
    let want = adjacency(&std);
    assert_eq!(
        want.len(),
        504,
        "borders of the standard map (armies, fleets, both ways)"
    );
    let m = Model::from_variant(&std);
    // DipWork.
    let out = tmp("std-dw");
    formats::write(&m, Format::DipWork, &out).unwrap();
    let dw = formats::load_any(&out.to_string_lossy()).unwrap();
    assert_eq!(adjacency(&dw), want);
    assert_eq!(centres(&dw), centres(&std));
    assert_eq!(
        dw.map.clockwise(dw.map.find_province("stp").unwrap()),
        std.map.clockwise(std.map.find_province("stp").unwrap())
    );
    // DPjudge.
    let text = dpjudge::write(&m);
    let dp = dpjudge::read_str(&text, "standard.map")
        .unwrap()
        .build("standard.map")
        .unwrap();
    assert_eq!(adjacency(&dp), want);
    assert_eq!(centres(&dp), centres(&std));
    assert_eq!(dp.start.units().count(), 22);
    // Native.
    let nat = dip_variants::parse(&m.to_native(), "x.variant").unwrap();
    assert_eq!(adjacency(&nat), want);
    // Realpolitik.
    let out = tmp("std-rp");
    formats::write(&m, Format::Realpolitik, &out).unwrap();
    let rp = formats::load_any(&out.join("standard.var").to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(adjacency(&rp), want);
    assert_eq!(centres(&rp), centres(&std));
    assert_eq!(rp.start.units().count(), 22);
    // Realpolitik knows colours by name: dip's `#rrggbb` colours were
    // written as they were, which Realpolitik cannot read.
    let cnt = std::fs::read_to_string(out.join("standard.cnt")).unwrap();
    assert!(!cnt.contains('#'), "{cnt}");
    assert!(cnt.contains("England English E Random Blue"), "{cnt}");
}

#[test]
fn dpjudge_fixture_reads_lower_case_army_borders_coasts_and_includes() {
    let v = formats::load_any(&fixture("dpjudge/duel.map")).unwrap_or_else(|e| panic!("{e}"));
    let map = &v.map;
    let (a, f) = (map.find_unit_type("A").unwrap(), map.find_unit_type("F").unwrap());
    let r = |n: &str| map.main_region(map.find_province(n).unwrap());
    // `nhm ABUTS ... shm` in lower case: armies only.
    assert!(map.adjacent(a, r("nhm"), r("shm")));
    assert!(!map.adjacent(f, r("nhm"), r("shm")));
    let mid = map.find_province("mid").unwrap();
    assert!(map.adjacent(f, map.find_coast(mid, "ec").unwrap(), r("esea")));
    assert_eq!(map.powers().len(), 2);
    assert_eq!(map.victory_centers(), 2);
    // The variant that includes it (MAP duel.map) changes the start.
    let v2 = formats::load_any(&fixture("dpjudge/duel_fleets.map")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(adjacency(&v2), adjacency(&v));
    let nhm = v2.map.find_province("nhm").unwrap();
    assert_eq!(v2.map.unit_type(v2.start.unit(nhm).unwrap().kind).letter, 'A');
}

#[test]
fn reader_errors_name_file_and_line() {
    // DipWork: a border to an unknown field.
    let params = dipwork::read_params(
        "NATIONLIST\nAa Alpha\n\nUNITLIST\nA Army # Costs=1 St=1 AllowedIn=A\n\nEND\n",
        "VARIANT.TXT",
    )
    .unwrap();
    let fields = "# One 1 1 - LA 1 Aa\n# Two 2 2 - LA 0 -\n- One Two ja\n- One Three ja\nEND\n";
    let e = dipwork::read(&params, "VARIANT.TXT", fields, "FIELDS.TXT", None, "x").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("FIELDS.TXT", 4), "{e}");
    // DipWork: a switch with a value of the wrong type.
    let e = dipwork::read_params("SELF_CUT_OK vielleicht\nEND\n", "VARIANT.TXT").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("ja or nein"), "{e}");
    // DipWork: a home nation that NATIONLIST lacks.
    let e = dipwork::read(
        &params,
        "VARIANT.TXT",
        "# One 1 1 - LA 1 Zz\nEND\n",
        "FIELDS.TXT",
        None,
        "x",
    )
    .unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("FIELDS.TXT", 1), "{e}");
    // DPjudge: an abutment of an unknown location.
    let e = dpjudge::read_str("LAND AAA ABUTS BBB\nLAND BBB ABUTS AAA CCC\n", "x.map").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("x.map", 2), "{e}");
    // DPjudge: a unit line before any power.
    let e = dpjudge::read_str("LAND AAA ABUTS BBB\nA AAA\n", "x.map").unwrap_err();
    assert_eq!(e.line, 2);
    // A semantic problem found by the native checks is reported at the source line.
    let e = dpjudge::read_str(
        "RED (REDDISH) AAA\nF AAA\nLAND AAA ABUTS BBB\nLAND BBB ABUTS AAA\n",
        "y.map",
    )
    .unwrap()
    .build("y.map")
    .unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("y.map", 2), "{e}");
}

/// DPjudge's `BEGIN` line is read by dip's one reader of phase names
/// (`Phase`'s `FromStr`), which its own copy of that reader had been.
#[test]
fn dpjudge_begin_lines_are_read_as_phase_names() {
    let map = "LAND AAA ABUTS BBB\nLAND BBB ABUTS AAA\n";
    let begin = |line: &str| dpjudge::read_str(&format!("{line}\n{map}"), "x.map");
    for (line, want) in [
        (
            "BEGIN SPRING 1901 MOVEMENT",
            (1901, Season::Spring, PhaseKind::Movement),
        ),
        ("BEGIN FALL 1905 RETREATS", (1905, Season::Fall, PhaseKind::Retreat)),
        ("BEGIN WINTER 1903", (1903, Season::Fall, PhaseKind::Adjustment)),
        ("begin 1902 autumn", (1902, Season::Fall, PhaseKind::Movement)),
    ] {
        let m = begin(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!((m.year, m.season, m.kind), want, "{line}");
    }
    let e = begin("BEGIN SUMMER 1901").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("x.map", 1), "{e}");
    // The word as the file wrote it, and what could have come instead.
    assert!(
        e.message.contains("found `SUMMER`")
            && e.message.contains("expected a year, a season")
            && e.message.contains("BEGIN SEASON YEAR KIND"),
        "{e}"
    );
}

#[test]
fn realpolitik_files_read_with_wings_mx_hx_positions_and_shared_folders() {
    let v = formats::load_any(&fixture("realpolitik/Tiny/Tiny.var")).unwrap_or_else(|e| panic!("{e}"));
    let map = &v.map;
    let r = |n: &str| map.main_region(map.find_province(n).unwrap());
    let (a, w) = (map.find_unit_type("A").unwrap(), map.find_unit_type("W").unwrap());
    // Wings fly by `aa` adjacencies, over the strait to the isle.
    assert!(map.adjacent(w, r("nor"), r("isl")));
    assert!(!map.adjacent(a, r("nor"), r("isl")));
    // `mx`: one support less; `/hx`: no retreats.
    assert!(map
        .edge_flags(a, r("sou"), r("inl"))
        .unwrap()
        .has(dip_core::map::EdgeFlags::WEAK_MOVE));
    assert!(map
        .edge_flags(a, r("nor"), r("sou"))
        .unwrap()
        .has(dip_core::map::EdgeFlags::NO_RETREAT));
    assert_eq!(map.build_rule, dip_core::map::BuildRule::Aberration);
    assert_eq!(map.victory_centers(), 3);
    assert_eq!(
        map.province(map.find_province("pea").unwrap()).terrain,
        dip_core::Terrain::Impassable
    );
    // .cnt: colours, patterns, initials and homes; .rgn: unit and name positions; .txt: the description.
    assert_eq!(v.power_styles[0].pattern.as_deref(), Some("Hash"));
    assert_eq!(v.power_styles[1].initial, Some('S'));
    assert_eq!(map.province(map.find_province("nor").unwrap()).pos, Some((100.0, 50.0)));
    assert_eq!(v.labels[0], Some((110.0, 40.0)));
    assert!(v.description.contains("wings"));
    assert_eq!(v.start.units().count(), 3);
    // A variant in another folder shares the map, countries and regions.
    let s = formats::load_any(&fixture("realpolitik/TinyStart/TinyStart.var")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(adjacency(&s), adjacency(&v));
    assert_eq!(s.start.phase.year, 1905);
    assert_eq!(s.map.build_rule, dip_core::map::BuildRule::Standard);
    assert!(dip_variants::lint::lint(&s).is_empty());
}

#[test]
fn realpolitik_errors_name_file_and_line() {
    let dir = tmp("rp-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let load = || formats::load_any(&dir.join("Bad.var").to_string_lossy()).unwrap_err();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "Bad.var",
        "Version: 1\nName: Bad\nMapData: Bad.map\nCountries: Bad.cnt\nGame: Bad.gam\n",
    );
    write("Bad.cnt", "1\n1\nRed Reddish R Hash Red\n");
    write("Bad.gam", "1\nBad\nBad\nSpring 1901\n0\n1\nRed\none\na one\n0\n");
    // An adjacency to an unknown space.
    write(
        "Bad.map",
        "One, R one\nTwo, l two\n-1\none-mv: two\ntwo-mv: one three\n-1\none\n",
    );
    let e = load();
    assert!(e.file.ends_with("Bad.map") && e.line == 5, "{e}");
    // An unknown adjacency type.
    write("Bad.map", "One, R one\nTwo, l two\n-1\none-mv: two\ntwo-qq: one\n-1\n");
    let e = load();
    assert!(e.line == 5 && e.message.contains("qq"), "{e}");
    // An unknown unit type in the game file.
    write("Bad.map", "One, R one\nTwo, l two\n-1\none-mv: two\ntwo-mv: one\n-1\n");
    write("Bad.gam", "1\nBad\nBad\nSpring 1901\n0\n1\nRed\none\nq one\n0\n");
    let e = load();
    assert!(
        e.file.ends_with("Bad.gam") && e.line == 9 && e.message.contains("unit type"),
        "{e}"
    );
    // A country line with too few words.
    write("Bad.cnt", "1\n1\nRed Reddish\n");
    let e = load();
    assert!(e.file.ends_with("Bad.cnt") && e.line == 3, "{e}");
    // A home centre marked with an initial no country has.
    write("Bad.cnt", "1\n1\nRed Reddish B Hash Red\n");
    let e = load();
    assert!(
        e.file.ends_with("Bad.map") && e.line == 1 && e.message.contains("initial `R`"),
        "{e}"
    );
    // A shared file that is not there.
    write(
        "Bad.var",
        "Version: 1\nName: Bad\nMapData: Elsewhere/Missing.map\nCountries: Bad.cnt\n",
    );
    write("Bad.cnt", "1\n1\nRed Reddish R Hash Red\n");
    let e = load();
    assert!(e.file.ends_with("Bad.var") && e.line == 3, "{e}");
}

/// Every bundled variant survives every format: the same borders, centres
/// and homes read back (DPjudge: where no border is open to fleets only).
#[test]
fn every_bundled_variant_round_trips_through_every_format() {
    for (name, _) in dip_variants::bundled() {
        let v = dip_variants::load(name).unwrap();
        let m = Model::from_variant(&v);
        let want = adjacency(&v);
        let out = tmp(&format!("all-dw-{name}"));
        formats::write(&m, Format::DipWork, &out).unwrap();
        let dw = formats::load_any(&out.to_string_lossy()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(adjacency(&dw), want, "{name} via DipWork");
        assert_eq!(centres(&dw), centres(&v), "{name} via DipWork");
        assert_eq!(dw.start.units().count(), v.start.units().count(), "{name} via DipWork");
        let out = tmp(&format!("all-rp-{name}"));
        formats::write(&m, Format::Realpolitik, &out).unwrap();
        let rp = formats::load_any(&out.join(format!("{name}.var")).to_string_lossy())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(adjacency(&rp), want, "{name} via Realpolitik");
        if v.map.powers().len() <= 26 {
            assert_eq!(centres(&rp), centres(&v), "{name} via Realpolitik");
        } else {
            // One letter a country marks its homes: at most 26 countries.
            assert!(
                formats::lost_in(&m, Format::Realpolitik)
                    .iter()
                    .any(|l| l.starts_with("home")),
                "{name}"
            );
        }
        let dp = dpjudge::read_str(&dpjudge::write(&m), "x.map")
            .unwrap()
            .build("x.map")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let extra: Vec<_> = adjacency(&dp).difference(&want).cloned().collect();
        let missing: Vec<_> = want.difference(&adjacency(&dp)).cloned().collect();
        assert!(missing.is_empty(), "{name} via DPjudge lost {missing:?}");
        assert!(
            extra.iter().all(|e| e.starts_with("A ")),
            "{name} via DPjudge gained {extra:?}"
        );
        assert_eq!(centres(&dp), centres(&v), "{name} via DPjudge");
    }
}

#[test]
fn what_a_format_cannot_carry_is_reported() {
    let std = Model::from_variant(&dip_variants::standard());
    for f in [Format::DipWork, Format::DpJudge, Format::Realpolitik, Format::Native] {
        assert_eq!(formats::lost_in(&std, f), Vec::<String>::new(), "{f:?}");
    }
    let text = "variant t\npower RED Red Red\nprovince a A land center home=RED\nprovince b B land\nborder A a b:mx\nunit-at RED A a\n";
    let m = Model::from_variant(&dip_variants::parse(text, "t").unwrap());
    assert_eq!(
        formats::lost_in(&m, Format::DipWork),
        vec!["A a-b:mx".to_string(), "A b-a:mx".to_string()]
    );
    assert!(
        formats::lost_in(&m, Format::Realpolitik).is_empty(),
        "Realpolitik has mx"
    );
}

/// DipWork's files of the time: ISO-8859-1 umlauts, DOS line ends, Ctrl-Z.
#[test]
fn latin1_dos_files_are_read() {
    let dir = tmp("latin1");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("VARIANT.TXT"),
        b"NATIONLIST\r\nAu \xd6sterreich Austria\r\n\r\nUNITLIST\r\nA Army # Costs=1 St=1 AllowedIn=A\r\n\r\nEND\r\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("FIELDS.TXT"),
        b"# Wien 1 1 - LA 1 Au\r\n# Graz 2 2 - LA 0 -\r\n- Wien Graz ja\r\n- Graz Wien ja\r\n= Wien Wien K\xe4rnten\r\nEND\r\n\x1a",
    )
    .unwrap();
    let v = formats::load_any(&dir.to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.map.power(dip_core::PowerId(0)).name, "Österreich");
    assert!(v.map.find_province("Kärnten").is_some());
}

/// `CONVOY_RELEVANT_UNITNR 4294967295` made the DipWork reader allocate a
/// border table 4.2 billion columns wide.
#[test]
fn convoy_relevant_unitnr_4294967295_allocates_gigabytes() {
    let out = tmp("convoy-nr");
    let m = Model::from_variant(&dip_variants::standard());
    formats::write(&m, Format::DipWork, &out).unwrap();
    let vt = std::fs::read_to_string(out.join("VARIANT.TXT")).unwrap();
    let vt = vt
        .lines()
        .map(|l| {
            if l.starts_with("CONVOY_RELEVANT_UNITNR") {
                "CONVOY_RELEVANT_UNITNR 4294967295".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(out.join("VARIANT.TXT"), vt).unwrap();
    let e = formats::read_model(out.to_str().unwrap()).unwrap_err().to_string();
    assert!(
        e.contains("CONVOY_RELEVANT_UNITNR takes a unit number from 1 to 3"),
        "{e}"
    );
    assert!(e.contains("VARIANT.TXT:"), "{e}");
}

/// `MAP /etc/passwd` in a DPjudge map read any file and echoed its first line.
#[test]
fn dpjudge_map_absolute_path_reads_any_file() {
    let d = tmp("dpjudge-map");
    std::fs::create_dir_all(&d).unwrap();
    for name in ["/etc/passwd", "../secret.map"] {
        std::fs::write(d.join("x.map"), format!("MAP {name}\n")).unwrap();
        let e = formats::load_any(d.join("x.map").to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("no absolute path, no `..`"), "{e}");
        assert!(!e.contains("root:"), "{e}");
    }
}

/// Realpolitik's `ColorMap: Tiny` names the picture without its extension:
/// the file beside the variant (`Tiny.bmp`, any case) is found, and so is
/// the black-and-white map.
#[test]
fn realpolitik_colormap_without_extension_is_found() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realpolitik/Tiny");
    let dir = std::env::temp_dir().join(format!("dip-rp-colormap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    std::fs::write(dir.join("TINY.BMP"), b"BM").unwrap();
    std::fs::write(dir.join("TinyBW.bmp"), b"BM").unwrap();
    let v = formats::load_any(&dir.join("Tiny.var").to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
    let pics: Vec<(&str, &str)> = v.pictures.iter().map(|(k, p)| (k.as_str(), p.as_str())).collect();
    assert!(pics.contains(&("colour", "TINY.BMP")), "{pics:?}");
    assert!(pics.contains(&("bw", "TinyBW.bmp")), "{pics:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The Mac edition's maps are PICTs (`Tiny.pct`, `TinyBW.PICT`): a
/// ColorMap named without extension found only `.bmp` and `.png` files.
#[test]
fn realpolitik_pict_colormap_without_extension_was_not_found() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realpolitik/Tiny");
    let dir = std::env::temp_dir().join(format!("dip-rp-pict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    std::fs::write(dir.join("Tiny.pct"), [0u8; 16]).unwrap();
    std::fs::write(dir.join("TinyBW.PICT"), [0u8; 16]).unwrap();
    let v = formats::load_any(&dir.join("Tiny.var").to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
    let pics: Vec<(&str, &str)> = v.pictures.iter().map(|(k, p)| (k.as_str(), p.as_str())).collect();
    assert!(pics.contains(&("colour", "Tiny.pct")), "{pics:?}");
    assert!(pics.contains(&("bw", "TinyBW.PICT")), "{pics:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// DipWork files from DOS and Windows keep their encoding when written back:
/// `Südland` in code page 850 (0x81) or Latin-1 (0xFC) was written as UTF-8,
/// which DOS programs show as two wrong letters.
#[test]
fn dipwork_files_are_written_back_in_their_encoding() {
    for (tag, u_umlaut) in [("dos", 0x81u8), ("latin1", 0xFCu8)] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dipwork/mini");
        let dir = tmp(&format!("enc-in-{tag}"));
        std::fs::create_dir_all(&dir).unwrap();
        for e in std::fs::read_dir(&src).unwrap().flatten() {
            let mut bytes = std::fs::read(e.path()).unwrap();
            if e.file_name() == "VARIANT.TXT" {
                let text = String::from_utf8(bytes).unwrap().replace("Suedland", "S\u{fc}dland");
                bytes = text
                    .chars()
                    .map(|c| if c == 'ü' { u_umlaut } else { c as u8 })
                    .collect();
            }
            std::fs::write(dir.join(e.file_name()), bytes).unwrap();
        }
        let (m, _) = formats::read_model(&dir.to_string_lossy()).unwrap();
        assert!(
            m.powers.iter().any(|p| p.name == "Südland"),
            "{tag}: read with its umlaut"
        );
        let out = tmp(&format!("enc-out-{tag}"));
        formats::write(&m, Format::DipWork, &out).unwrap();
        let written = std::fs::read(out.join("VARIANT.TXT")).unwrap();
        assert!(
            written.windows(2).any(|w| w == [b'S', u_umlaut]),
            "{tag}: written back with the umlaut as byte {u_umlaut:#x}"
        );
        let (again, _) = formats::read_model(&out.to_string_lossy()).unwrap();
        assert!(
            again.powers.iter().any(|p| p.name == "Südland"),
            "{tag}: reads back the same"
        );
    }
}

/// Realpolitik's `.rgn` scanlines (the provinces' shapes) were dropped when
/// a `.var` was converted back to Realpolitik's files; and its flag 8
/// (large icons) was read but not written back.
#[test]
fn converting_tiny_var_back_lost_its_rgn_scanlines_and_large_icons() {
    use dip_variants::formats::{outputs, read_model, Format};
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realpolitik/Tiny");
    let dir = std::env::temp_dir().join(format!("dip-formats-{}-rgn", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    let var = std::fs::read_to_string(dir.join("Tiny.var"))
        .unwrap()
        .replace("Flags: 4", "Flags: 12");
    std::fs::write(dir.join("Tiny.var"), var).unwrap();
    let (m, _) = read_model(dir.join("Tiny.var").to_str().unwrap()).unwrap();
    let files = outputs(&m, Format::Realpolitik, &dir.join("out"));
    let text = |suffix: &str| {
        files
            .iter()
            .find(|(p, _)| p.to_string_lossy().ends_with(suffix))
            .map(|(_, t)| t.clone())
            .unwrap()
    };
    let scanlines = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| l.split(' ').count() == 3 && l.split(' ').all(|w| w.parse::<i64>().is_ok()))
            .collect()
    };
    let original = std::fs::read_to_string(src.join("Tiny.rgn")).unwrap();
    assert!(!scanlines(&original).is_empty());
    assert_eq!(scanlines(&text(".rgn")), scanlines(&original));
    assert!(text(".var").contains("Flags: 12"), "{}", text(".var"));
    let _ = std::fs::remove_dir_all(dir);
}
