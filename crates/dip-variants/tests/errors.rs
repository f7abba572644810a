//! Bad input: every error names the file and line, and nothing panics.

use dip_core::map::EdgeFlags;
use dip_variants::{parse, VariantError};

/// A small variant to break in many ways.
const MINI: &str = r#"# a small test variant
variant mini
title Mini Map
start 1901 spring
victory 0
power NOR North Northern colour=#123456 initial=N
power SOU South Southern

province aaa Alpha coast center home=NOR at=10,10
province bbb "Beta Land" coast center home=SOU coasts=nc,sc at=20,10 aka=bet,"b land"
province ccc Gamma land center at=15,20
province sea "The Sea" sea at=15,0

border A aaa bbb ccc
border A bbb ccc
border F aaa sea bbb/nc
border F bbb/sc sea
unit-at NOR A aaa
unit-at SOU F bbb/nc
"#;

fn err(text: &str) -> VariantError {
    match parse(text, "test.variant") {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

/// MINI with line `n` (1-based) replaced.
fn with_line(n: usize, line: &str) -> String {
    let mut lines: Vec<&str> = MINI.lines().collect();
    lines[n - 1] = line;
    lines.join("\n")
}

/// MINI with a line added at the end.
fn plus(line: &str) -> (String, usize) {
    let text = format!("{MINI}{line}\n");
    let n = text.lines().count();
    (text, n)
}

fn assert_err(e: &VariantError, line: usize, needle: &str) {
    assert_eq!(e.file, "test.variant");
    assert_eq!(e.line, line, "{e}");
    assert!(e.message.contains(needle), "`{}` should mention `{needle}`", e.message);
    assert!(e.to_string().starts_with(&format!("test.variant:{line}: ")), "{e}");
}

#[test]
fn mini_parses() {
    let v = parse(MINI, "test.variant").unwrap();
    let m = &v.map;
    assert_eq!(v.name, "mini");
    assert_eq!(v.title, "Mini Map");
    assert_eq!(m.num_provinces(), 4);
    assert_eq!(m.num_regions(), 6);
    assert_eq!(m.supply_centers().len(), 3);
    assert_eq!(m.victory_centers(), 2);
    assert_eq!(v.start.units().count(), 2);
    assert_eq!(v.power_styles[0].colour.as_deref(), Some("#123456"));
    assert_eq!(v.power_styles[0].initial, Some('N'));
    assert_eq!(v.power_styles[1], Default::default());
    let b = m.find_province("b land").unwrap();
    assert_eq!(m.find_province("BET"), Some(b));
    assert_eq!(m.province(b).name, "Beta Land");
    let nor = m.find_power("north").unwrap();
    let a = m.find_province("aaa").unwrap();
    assert_eq!(v.start.owner(a), Some(nor));
    assert_eq!(v.start.owner(m.find_province("ccc").unwrap()), None);
}

#[test]
fn unknown_province_in_border() {
    let (t, n) = plus("border A aaa xyz");
    assert_err(&err(&t), n, "unknown province `xyz`");
    let (t, n) = plus("border F sea bbb/ec");
    assert_err(&err(&t), n, "no coast `ec`");
}

#[test]
fn bad_keyword() {
    let (t, n) = plus("provinc ddd Delta land");
    assert_err(&err(&t), n, "unknown keyword `provinc`");
    let (t, n) = plus("Province ddd Delta land");
    assert_err(&err(&t), n, "lower case");
}

#[test]
fn duplicate_province() {
    let (t, n) = plus("province aaa Again land");
    assert_err(&err(&t), n, "already used by province `aaa` (line 9)");
    // A full name or an alias colliding with another province's name.
    let (t, n) = plus("province ddd Delta land aka=bet");
    assert_err(&err(&t), n, "`bet` is already used by province `bbb`");
    let (t, n) = plus("province ddd Alpha land");
    assert_err(&err(&t), n, "`Alpha`");
}

#[test]
fn missing_quote() {
    let t = with_line(10, r#"province bbb "Beta Land coast center home=SOU coasts=nc,sc"#);
    assert_err(&err(&t), 10, "missing closing quote");
}

#[test]
fn bad_numbers() {
    assert_err(&err(&with_line(5, "victory lots")), 5, "expected the number of centres");
    assert_err(&err(&with_line(5, "victory 99")), 5, "more than the 3 supply centres");
    assert_err(&err(&with_line(4, "start MCM spring")), 4, "expected a year");
    assert_err(&err(&with_line(4, "start 1901 summer")), 4, "expected a season");
    assert_err(
        &err(&with_line(11, "province ccc Gamma land center at=15")),
        11,
        "at=X,Y",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land center at=1,NaN")),
        11,
        "at=X,Y",
    );
}

#[test]
fn bad_province_lines() {
    assert_err(
        &err(&with_line(11, "province ccc Gamma Ray land")),
        11,
        "quote names with spaces",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land home=NOR")),
        11,
        "add `center`",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land center home=XYZ")),
        11,
        "unknown power `XYZ`",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land centr")),
        11,
        "unknown province flag",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land coasts=nc,sc")),
        11,
        "only a `coast` province",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land where=here")),
        11,
        "unknown option `where=`",
    );
    assert_err(
        &err(&with_line(11, "province ccc Gamma land at=1,1 at=2,2")),
        11,
        "given twice",
    );
    assert_err(
        &err(&with_line(11, "province c/c Gamma land")),
        11,
        "may not contain `/`",
    );
    assert_err(
        &err(&with_line(11, "province")),
        11,
        "expected `province ABBR NAME TERRAIN",
    );
}

#[test]
fn bad_borders() {
    let (t, n) = plus("border A aaa sea");
    assert_err(&err(&t), n, "cannot stand in `sea`");
    let (t, n) = plus("border F bbb sea");
    assert_err(&err(&t), n, "needs a coast: bbb/nc or bbb/sc");
    let (t, n) = plus("border A bbb/nc aaa");
    assert_err(&err(&t), n, "does not use coasts");
    let (t, n) = plus("border F aaa sea:wide");
    assert_err(&err(&t), n, "unknown border flag `wide`");
    let (t, n) = plus("border W aaa sea");
    assert_err(&err(&t), n, "unknown unit type `W`");
    let (t, n) = plus("border F bbb/nc bbb/sc");
    assert_err(&err(&t), n, "two different provinces");
    let (t, n) = plus("border A aaa");
    assert_err(&err(&t), n, "expected `border TYPE PROV NEIGHBOUR...`");
}

#[test]
fn bad_units_and_owners() {
    let (t, n) = plus("unit-at NOR F bbb");
    assert_err(&err(&t), n, "needs a coast");
    let (t, n) = plus("unit-at NOR A ccc");
    assert!(parse(&t, "test.variant").is_ok());
    let (t, _) = plus("unit-at NOR A ccc\nunit-at SOU A ccc");
    assert_err(&err(&t), n + 1, "already has a unit");
    let (t, n) = plus("unit-at XYZ A ccc");
    assert_err(&err(&t), n, "unknown power `XYZ`");
    let (t, n) = plus("owner NOR sea");
    assert_err(&err(&t), n, "not a supply centre");
    let (t, _) = plus("owner NOR ccc\nowner SOU ccc");
    assert_err(&err(&t), n + 1, "already given on line");
    // Owner lines replace the default owners.
    let (t, _) = plus("owner SOU ccc");
    let v = parse(&t, "test.variant").unwrap();
    let m = &v.map;
    assert_eq!(v.start.owner(m.find_province("aaa").unwrap()), None);
    assert_eq!(v.start.owner(m.find_province("ccc").unwrap()), m.find_power("SOU"));
}

#[test]
fn bad_header() {
    assert_err(&err(&with_line(2, "# no name")), 1, "missing `variant NAME`");
    let (t, n) = plus("variant again");
    assert_err(&err(&t), n, "`variant` given twice (first on line 2)");
    let (t, n) = plus("rules datc paradox=sometimes");
    assert_err(&err(&t), n, "paradox");
    let (t, n) = plus("build-rule anarchy");
    assert_err(&err(&t), n, "standard, aberration or chaos");
    let (t, n) = plus("power NOR Nord Nordic");
    assert_err(&err(&t), n, "`NOR` is already used on line 6");
    let (t, n) = plus("power XX Xland Xish colour=blue!");
    assert_err(&err(&t), n, "colour");
    let (t, n) = plus("unit W Wing stands=land,sea,coast");
    assert!(
        parse(&t, "test.variant").is_err(),
        "line {n}: unit lines replace A and F, so A is unknown"
    );
}

#[test]
fn clockwise_orders() {
    let (t, _) = plus("clockwise aaa ccc bbb sea");
    let v = parse(&t, "test.variant").unwrap();
    let m = &v.map;
    let names: Vec<&str> = m
        .clockwise(m.find_province("aaa").unwrap())
        .iter()
        .map(|&p| m.province(p).abbr.as_str())
        .collect();
    assert_eq!(names, ["ccc", "bbb", "sea"]);
    let (t, n) = plus("clockwise aaa ccc");
    assert_err(&err(&t), n, "missing from the clockwise order: bbb, sea");
    let (t, n) = plus("clockwise ccc aaa bbb sea");
    assert_err(&err(&t), n, "`sea` is not a neighbour of `ccc`");
}

#[test]
fn edge_flags_and_home_of_all() {
    let text = r#"variant flags
power X Xland Xish
power Y Yland Yish
unit A Army convoyable stands=land,coast
unit F Fleet convoys coasts stands=sea,coast builds=coast
province p Pp coast center home=All
province q Qq coast center home=X,Y
province r Rr coast
border A p q:mx r:hx:canal
border-oneway F p q:canal
start 1901 winter
"#;
    let v = parse(text, "flags.variant").unwrap();
    let m = &v.map;
    let (a, f) = (m.find_unit_type("A").unwrap(), m.find_unit_type("F").unwrap());
    let reg = |n: &str| m.main_region(m.find_province(n).unwrap());
    assert_eq!(m.edge_flags(a, reg("p"), reg("q")), Some(EdgeFlags::WEAK_MOVE));
    assert_eq!(m.edge_flags(a, reg("q"), reg("p")), Some(EdgeFlags::WEAK_MOVE));
    assert_eq!(
        m.edge_flags(a, reg("r"), reg("p")),
        Some(EdgeFlags::NO_RETREAT.with(EdgeFlags::CANAL))
    );
    assert_eq!(m.edge_flags(f, reg("p"), reg("q")), Some(EdgeFlags::CANAL));
    assert_eq!(m.edge_flags(f, reg("q"), reg("p")), None);
    let p = m.find_province("p").unwrap();
    assert!(m.province(p).home_of_all);
    for pw in m.power_ids() {
        assert!(m.is_home(p, pw));
        assert!(m.is_home(m.find_province("q").unwrap(), pw));
    }
    assert_eq!(v.start.phase.kind, dip_core::PhaseKind::Adjustment);
    assert_eq!(v.title, "flags");
}

#[test]
fn defaults() {
    let v = parse(
        "variant tiny\nprovince a Aa coast\nprovince b Bb sea\nborder F a b\n",
        "t",
    )
    .unwrap();
    assert_eq!(v.map.unit_types().len(), 2);
    assert_eq!(v.map.victory, 0);
    assert_eq!(v.start.phase.year, 1901);
    assert_eq!(v.rules, dip_core::Ruleset::DATC);
    assert_eq!(v.description, "");
}

#[test]
fn load_errors_and_files() {
    let e = dip_variants::load("/nonexistent/dir/x.variant").unwrap_err();
    assert_eq!(e.line, 0);
    assert!(e.message.contains("bundled variants: standard"), "{e}");
    let dir = std::env::temp_dir().join(format!("dip-variants-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mini.variant");
    std::fs::write(&path, MINI).unwrap();
    let v = dip_variants::load(path.to_str().unwrap()).unwrap();
    assert_eq!(v.name, "mini");
    std::fs::write(&path, with_line(3, "tittle Mini")).unwrap();
    let e = dip_variants::load(path.to_str().unwrap()).unwrap_err();
    assert_eq!(e.file, path.to_str().unwrap());
    assert_eq!(e.line, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each line of every bundled variant cut at every character (the other
/// lines intact): parsing may fail but must not panic, and errors point at a
/// line of the file. (Some thousands of parses: spread over the cores.)
#[test]
fn truncated_lines_never_panic() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (name, text) in dip_variants::bundled() {
        let lines: Vec<&str> = text.lines().collect();
        std::thread::scope(|s| {
            for t in 0..threads {
                let lines = &lines;
                s.spawn(move || {
                    // Every line of the standard map; a sample of the lines of the others.
                    let stride = if *name == "standard" { 1 } else { 61 };
                    for (i, line) in lines.iter().enumerate().skip(t).step_by(threads) {
                        if i % stride != 0 {
                            continue;
                        }
                        for (cut, _) in line.char_indices().skip(1) {
                            let mut garbled = lines.clone();
                            garbled[i] = &line[..cut];
                            if let Err(e) = parse(&garbled.join("\n"), name) {
                                assert!(e.line >= 1 && e.line <= lines.len(), "{e}");
                            }
                        }
                    }
                });
            }
        });
    }
}

/// Random garbage built from the words and characters of the format.
#[test]
fn random_lines_never_panic() {
    let words = [
        "variant",
        "title",
        "description",
        "start",
        "victory",
        "build-rule",
        "rules",
        "power",
        "unit",
        "province",
        "region",
        "border",
        "border-oneway",
        "clockwise",
        "unit-at",
        "owner",
        "A",
        "F",
        "aaa",
        "bbb",
        "bbb/nc",
        "bbb/xx",
        "bbb(sc)",
        "ccc",
        "sea",
        "NOR",
        "SOU",
        "land",
        "coast",
        "impassable",
        "center",
        "home=All",
        "home=NOR,SOU",
        "coasts=nc,sc",
        "coasts=",
        "at=1,2",
        "at=,",
        "aka=\"x y\"",
        "\"",
        "\"\"",
        "#",
        "=",
        ":",
        "sea:mx",
        "sea:hx:canal",
        "0",
        "-1",
        "99999999999",
        "1901",
        "spring",
        "winter",
        "retreat",
        "colour=#fff",
        "initial=",
        "stands=",
        "stands=land",
        "cost=300",
        "/",
        "(",
        ")",
        ",",
        "é",
        "\u{feff}",
        "\t",
        "datc",
        "paradox=",
        "chaos",
        "convoys",
        "coasts",
    ];
    let mut rng = fastrand::Rng::with_seed(20240601);
    let base: Vec<&str> = MINI.lines().collect();
    for _ in 0..4000 {
        let mut lines: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        for _ in 0..rng.usize(1..4) {
            let line: Vec<&str> = (0..rng.usize(0..8)).map(|_| words[rng.usize(..words.len())]).collect();
            let sep = if rng.bool() { " " } else { "" };
            let at = rng.usize(..=lines.len());
            lines.insert(at, line.join(sep));
        }
        if rng.bool() && !lines.is_empty() {
            let i = rng.usize(..lines.len());
            lines.remove(i);
        }
        let t = lines.join("\n");
        if let Err(e) = parse(&t, "random") {
            assert!(e.line <= lines.len().max(1), "{e}");
        }
    }
    // Arbitrary bytes, as far as they are text.
    for _ in 0..2000 {
        let bytes: Vec<u8> = (0..rng.usize(0..200)).map(|_| rng.u8(..)).collect();
        let t = String::from_utf8_lossy(&bytes);
        let _ = parse(&t, "bytes");
    }
}

/// The example of docs/variant-format.md parses and means what it says.
#[test]
fn documented_example() {
    let doc = include_str!("../../../docs/variant-format.md");
    let start = doc.find("```\n# A two-power example.").expect("example") + 4;
    let len = doc[start..].find("```").expect("end of example");
    let v = parse(&doc[start..start + len], "variant-format.md").unwrap_or_else(|e| panic!("{e}"));
    let m = &v.map;
    assert_eq!(v.name, "duel");
    assert_eq!(m.num_provinces(), 5);
    assert_eq!(m.supply_centers().len(), 3);
    assert_eq!(m.victory_centers(), 2);
    assert_eq!(v.start.units().count(), 2);
    assert_eq!(m.find_province("the south"), m.find_province("shm"));
    let f = m.find_unit_type("F").unwrap();
    let mid = m.find_province("mid").unwrap();
    let ec = m.find_coast(mid, "east").unwrap();
    let esea = m.main_region(m.find_province("esea").unwrap());
    assert_eq!(m.edge_flags(f, esea, ec), Some(EdgeFlags::NO_RETREAT));
    assert_eq!(v.description, "Two powers, five provinces.");
}

#[test]
fn new_statements_report_their_line() {
    let base = "variant t\npower RED Red Red\nprovince a A land center home=RED\n";
    let e = parse(&format!("{base}order-words jump x\n"), "t.variant").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("unknown order kind `jump`"), "{e}");
    let e = parse(&format!("{base}order-words move\n"), "t.variant").unwrap_err();
    assert_eq!(e.line, 4);
    let e = parse(&format!("{base}convoy-unit Q\n"), "t.variant").unwrap_err();
    assert_eq!(e.line, 4);
    let e = parse(&format!("{base}picture colour\n"), "t.variant").unwrap_err();
    assert_eq!(e.line, 4);
    let e = parse(&format!("{base}power BLU Blue Blue aka=Red\n"), "t.variant").unwrap_err();
    assert!(e.line == 4 && e.message.contains("already used"), "{e}");
    let v = parse(
        &format!("{base}unit A Army stands=land aka=Ar,Armee\norder-words move - zieht\norder-words hold x\nprovince b B land label=3,4\nborder A a b\n"),
        "t.variant",
    )
    .unwrap();
    assert_eq!(v.unit_aliases, vec![vec!["Ar".to_string(), "Armee".to_string()]]);
    assert_eq!(v.order_words[0].0, "hold");
    assert_eq!(v.labels[1], Some((3.0, 4.0)));
    assert!(
        v.word_lists()
            .contains("UNITLIST\nA Army Ar Armee\nORDERLIST\nx\n- zieht\nEND"),
        "{}",
        v.word_lists()
    );
}

#[test]
fn what_an_impassable_province_touches_is_read_and_written_back() {
    let with_rock = |line: &str| plus(&format!("province roc Rock impassable at=30,30\n{line}"));
    let (t, _) = with_rock("touches roc aaa ccc");
    let v = parse(&t, "test.variant").unwrap();
    let m = &v.map;
    let p = |name: &str| m.find_province(name).unwrap();
    assert_eq!(v.touches, vec![(p("roc"), vec![p("aaa"), p("ccc")])]);
    // No unit crosses into it: the lines are not borders.
    assert!(m.province_ids().all(|q| m.clockwise(q).iter().all(|&r| r != p("roc"))));
    let again = parse(&dip_variants::to_native(&v), "again.variant").unwrap();
    assert_eq!(again.touches, v.touches);
    let (t, n) = with_rock("touches ccc aaa");
    assert_err(&err(&t), n, "`ccc` is not impassable");
    let (t, n) = with_rock("touches roc aaa aaa");
    assert_err(&err(&t), n, "`aaa` listed twice");
    let (t, n) = with_rock("touches roc zzz");
    assert_err(&err(&t), n, "unknown province `zzz`");
    let (t, n) = with_rock("touches roc");
    assert_err(&err(&t), n, "at least one neighbour");
}

#[test]
fn misspelt_variant_name_was_reported_as_an_os_error() {
    // `--variant standrd` said "cannot read the variant file (standrd:
    // cannot read: No such file or directory (os error 2))".
    let e = dip_variants::load("standrd").unwrap_err();
    assert_eq!(e.file, "standrd");
    assert!(!e.message.contains("os error"), "{e}");
    assert!(
        e.message.contains("no bundled variant of that name and no such file"),
        "{e}"
    );
    assert!(e.message.contains("bundled variants: standard, "), "{e}");
}
