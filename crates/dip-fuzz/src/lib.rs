//! Every reader of dip as a fuzz target. Each target takes any bytes and
//! must return (an error is fine) without panicking, without hanging and
//! without allocating beyond reason.
//!
//! The same targets run three ways:
//! - in the test suite (`cargo test -p dip-fuzz`): each target briefly, on
//!   mutations of its seeds ([`mutate`]), deterministic;
//! - with `scripts/fuzz.sh TARGET SECONDS`: the same mutator for as long as
//!   wanted, under a memory limit, keeping every input that crashed;
//! - with cargo-fuzz (`fuzz/`, nightly): coverage-guided, one binary per target.
//!
//! A crash found becomes a regression input, `regressions/TARGET--what-it-was`,
//! run by `tests/regressions.rs`.

#![forbid(unsafe_code)]

use dip_core::Ruleset;
use std::path::PathBuf;

mod daide;
pub mod rig;
pub use daide::{daide_frames, daide_orders, daide_session, daide_text};

/// A fuzz target: a reader fed any bytes.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    /// Real inputs the mutations start from.
    pub seeds: fn() -> Vec<Vec<u8>>,
}

mod http;
pub use http::http_body;

/// Bytes as dip reads a user's file: UTF-8 (a byte-order mark skipped),
/// else DOS code page 850 or Latin-1, as `dip_variants::files` decides.
fn text(data: &[u8]) -> String {
    dip_variants::files::decode_any(data.to_vec()).0
}

fn repo_file(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("seed {}: {e}", p.display()))
}

fn standard() -> &'static dip_variants::Variant {
    use std::sync::OnceLock;
    static V: OnceLock<dip_variants::Variant> = OnceLock::new();
    V.get_or_init(dip_variants::standard)
}

/// Orders files (`dip orders check`, `dip adjudicate`, `dip run`'s scanner).
pub fn orders(data: &[u8]) {
    let v = standard();
    let t = text(data);
    let vocab = dip_text::Vocabulary::new(&v.map);
    let rules = Ruleset::default();
    let report = dip_text::read_turn(&vocab, &v.start, &rules, &dip_text::CheckOptions::default(), &t, None);
    let _ = report.errors_text(&vocab, dip_text::Style::Datc);
    if let Ok(o) = dip_text::read_orders_strict(&vocab.clone().with_spellcheck(0), Some(&v.start), &t) {
        let _ = dip_core::game::adjudicate(&v.map, &v.start, &o, &rules);
    }
}

/// Position files.
pub fn position(data: &[u8]) {
    let v = standard();
    if let Ok(s) = dip_text::parse_position(&v.map, &text(data), "fuzz.txt") {
        let _ = dip_text::format_position(&v.map, &s);
        let out = dip_core::game::adjudicate(&v.map, &s, &[], &Ruleset::default());
        let _ = dip_core::game::advance(&v.map, &s, &out);
    }
}

/// GAME.TXT / NEWGAME.TXT, and the keyword reader of ORDERS.TXT and PROJECT.TXT.
pub fn gamefile(data: &[u8]) {
    let v = standard();
    let t = text(data);
    let _ = dip_game::params::ParamFile::parse(&t, PathBuf::from("PROJECT.TXT"));
    if let Ok(g) = dip_game::gamefile::GameFile::read(&t, std::path::Path::new("GAME.TXT")) {
        let vocab = dip_text::Vocabulary::new(&v.map);
        if let Ok(s) = g.state(&vocab) {
            let _ = dip_game::gamefile::write_game(&g.header, &vocab, &s, &[]);
        }
    }
}

/// `dip run` over a game directory: GAME.TXT and ORDERS.TXT (split at the
/// first NUL byte), every stage but the map, in a folder of its own.
pub fn gamedir_run(data: &[u8]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUN: AtomicUsize = AtomicUsize::new(0);
    let n = RUN.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("dip-fuzz-run-{}-{n}", std::process::id()));
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (game, orders) = (&data[..split], data.get(split + 1..).unwrap_or(&[]));
    if std::fs::create_dir_all(&dir).is_ok()
        && std::fs::write(dir.join("GAME.TXT"), game).is_ok()
        && std::fs::write(dir.join("ORDERS.TXT"), orders).is_ok()
    {
        let stages = dip_game::gamedir::Stages {
            map: false,
            ..dip_game::gamedir::Stages::all()
        };
        let _ = dip_game::gamedir::run(&dir, &stages, None, &dip_play::Variants::new());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// dip's native variant format.
pub fn variant_native(data: &[u8]) {
    if let Ok(v) = dip_variants::parse(&text(data), "fuzz.variant") {
        let _ = dip_variants::lint::lint(&v);
        let _ = dip_variants::to_native(&v);
    }
}

/// DipWork's VARIANT.TXT and FIELDS.TXT (split at the first NUL byte).
pub fn variant_dipwork(data: &[u8]) {
    let t = text(data);
    let (vt, ft) = t.split_once('\0').unwrap_or((&t, ""));
    if let Ok(p) = dip_variants::dipwork::read_params(vt, "VARIANT.TXT") {
        if let Ok(m) = dip_variants::dipwork::read(&p, "VARIANT.TXT", ft, "FIELDS.TXT", None, "fuzz") {
            let _ = m.build("fuzz");
        }
    }
}

/// DPjudge map files, read from a file in a folder of their own as `dip`
/// reads them (so `MAP` lines that name other files are followed, and
/// confined to that folder).
pub fn variant_dpjudge(data: &[u8]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "dip-fuzz-dp-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("fuzz.map");
    if std::fs::write(&file, data).is_ok() {
        if let Ok(m) = dip_variants::dpjudge::read_file(&file.to_string_lossy()) {
            let _ = m.build("fuzz");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Realpolitik variants: the `.var` file and the files it names, written to
/// a folder (the data replaces the map file, `Tiny.cnt`... by turns).
pub fn variant_realpolitik(data: &[u8]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "dip-fuzz-rp-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/realpolitik/Tiny");
    let _ = std::fs::create_dir_all(&dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        return;
    }
    let victim = data.first().map(|&b| b as usize % files.len()).unwrap_or(0);
    let mut var = None;
    for (i, f) in files.iter().enumerate() {
        let name = f.file_name().unwrap_or_default();
        let to = dir.join(name);
        if i == victim {
            let _ = std::fs::write(&to, data.get(1..).unwrap_or_default());
        } else {
            let _ = std::fs::copy(f, &to);
        }
        if to.extension().is_some_and(|e| e.eq_ignore_ascii_case("var")) {
            var = Some(to);
        }
    }
    if let Some(var) = var {
        if let Ok(m) = dip_variants::realpolitik::read(&var.to_string_lossy()) {
            let _ = m.build("fuzz");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files of the tiny jDip plugin of dip-variants' tests.
const JDIP_FILES: [&str; 3] = ["variants.xml", "tiny_adjacency.xml", "tiny.svg"];

/// jDip variant plugins: the data is the tiny test plugin's three files
/// joined by `\0\0` (any of them mutated), read in memory, every variant
/// built, linted and written back, and the map's shapes and drawing read.
pub fn variant_jdip(data: &[u8]) {
    let mut parts: Vec<Vec<u8>> = data.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
    parts.retain(|p| !p.is_empty());
    let files: Vec<(String, Vec<u8>)> = JDIP_FILES.iter().zip(parts).map(|(n, b)| (n.to_string(), b)).collect();
    let Ok(plugin) = dip_variants::jdip::Plugin::from_memory("fuzz", files) else {
        return;
    };
    for (name, _) in plugin.variants.clone() {
        let Ok(jv) = plugin.variant(&name) else { continue };
        let _ = dip_variants::lint::lint_model(&jv.model);
        if let Ok(v) = jv.model.build("fuzz") {
            let _ = dip_variants::lint::lint(&v);
            if let Some((file, svg)) = &jv.svg {
                let _ = dip_render::jdip::shapes(&v, svg, file);
            }
        }
        let _ = dip_variants::jdip::write(&jv.model);
    }
}

/// jDip plugin zips: any bytes as a zip, every variant read.
pub fn variant_jdip_zip(data: &[u8]) {
    let Ok(plugin) = dip_variants::jdip::Plugin::from_zip_bytes("fuzz.zip", data.to_vec()) else {
        return;
    };
    for (name, _) in plugin.variants.clone() {
        if let Ok(jv) = plugin.variant(&name) {
            let _ = jv.model.build("fuzz");
        }
    }
}

fn jdip_seed() -> Vec<u8> {
    let mut out = Vec::new();
    for (i, f) in JDIP_FILES.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\0\0");
        }
        out.extend(repo_file(&format!("examples/jdip/tiny/{f}")));
    }
    out
}

/// A stored (uncompressed) zip of the tiny plugin, written by hand so the
/// seed needs no zip writer: local headers, central directory, end record.
fn jdip_zip_seed() -> Vec<u8> {
    fn crc32(b: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for &x in b {
            c ^= x as u32;
            for _ in 0..8 {
                c = if c & 1 == 1 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
            }
        }
        !c
    }
    let mut out = Vec::new();
    let mut central = Vec::new();
    for f in JDIP_FILES {
        let body = repo_file(&format!("examples/jdip/tiny/{f}"));
        let (crc, len, off) = (crc32(&body), body.len() as u32, out.len() as u32);
        let head = |sig: u32, central: bool| {
            let mut h = Vec::new();
            h.extend(sig.to_le_bytes());
            if central {
                h.extend(20u16.to_le_bytes());
            }
            h.extend(20u16.to_le_bytes()); // version needed
            h.extend(0u16.to_le_bytes()); // flags
            h.extend(0u16.to_le_bytes()); // stored
            h.extend(0u32.to_le_bytes()); // time, date
            h.extend(crc.to_le_bytes());
            h.extend(len.to_le_bytes());
            h.extend(len.to_le_bytes());
            h.extend((f.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes()); // extra
            if central {
                h.extend([0u8; 6]); // comment length, disk, internal attributes
                h.extend(0u32.to_le_bytes()); // external attributes
                h.extend(off.to_le_bytes());
            }
            h.extend(f.as_bytes());
            h
        };
        out.extend(head(0x0403_4b50, false));
        out.extend(&body);
        central.extend(head(0x0201_4b50, true));
    }
    let (cd_off, cd_len) = (out.len() as u32, central.len() as u32);
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((JDIP_FILES.len() as u16).to_le_bytes());
    out.extend((JDIP_FILES.len() as u16).to_le_bytes());
    out.extend(cd_len.to_le_bytes());
    out.extend(cd_off.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// Whole-game records (`.rec`).
pub fn record(data: &[u8]) {
    let v = standard();
    if let Ok(r) = dip_game::record::GameRecord::from_text(&v.map, &text(data), "fuzz.rec") {
        let _ = r.to_text(&v.map);
        let _ = r.last_state(&v.map);
        let _ = dip_game::record::to_mila(&v.map, &r);
        let _ = dip_game::dipfile::to_dip_files(&v.map, &r, "g");
    }
}

/// MILA's saved games (JSON lines, or gzip), imported and replayed.
pub fn mila(data: &[u8]) {
    let v = standard();
    if let Ok(games) = dip_game::mila::read_games(data, "fuzz.jsonl") {
        for g in games.iter().take(4) {
            let _ = dip_game::record::from_mila(&v.map, g);
            let _ = dip_game::replay::replay_game(&v.map, &Ruleset::default(), g);
        }
    }
}

/// DIP's season files (several, split at NUL bytes).
pub fn dipfile(data: &[u8]) {
    let v = standard();
    let t = text(data);
    let files: Vec<(String, String)> = t
        .split('\0')
        .enumerate()
        .take(8)
        .map(|(i, s)| (format!("g_{i}.dip"), s.to_string()))
        .collect();
    let _ = dip_game::dipfile::from_dip_files(&v.map, &files);
}

/// Analyse control files (`dip rate`), a result table after the first NUL.
pub fn analyse(data: &[u8]) {
    use dip_rating::analyse::{Interp, MemHost};
    let t = text(data);
    let (ctl, table) = t.split_once('\0').unwrap_or((&t, "= 2024-01-01 g\nA 3\nB 2\nC 1\n"));
    let mut host = MemHost::default();
    host.files.insert("g.res".into(), table.to_string());
    host.files.insert("inc.ctl".into(), ctl.to_string());
    let mut it = Interp::new(&mut host, vec!["g.res".into()], false);
    let _ = it.run("fuzz.ctl", ctl);
    let _ = dip_rating::expr::parse(ctl);
    let _ = dip_rating::results::read_any("fuzz.res", table);
}

/// Adjudication case files (dip's format and jDip's), run.
pub fn cases(data: &[u8]) {
    if let Ok(cases) = dip_cases::parse_file(&text(data), "fuzz.cases") {
        let settings = dip_cases::Settings::default();
        for c in cases.iter().take(8) {
            let _ = dip_cases::run(c, &settings);
        }
    }
}

/// Stage files read back (SCANNED.TXT and PARSED.TXT as corrected by
/// hand, CONFLICTED.TXT and WINTERED.TXT for the report).
pub fn stagefile(data: &[u8]) {
    use dip_game::stagefile::{orders_of, Earlier};
    let v = standard();
    let t = text(data);
    let vocab = dip_text::Vocabulary::new(&v.map);
    for which in [Earlier::Scanned, Earlier::Parsed] {
        let _ = orders_of(&vocab, which, std::path::Path::new(which.file_name()), &t);
    }
    if let Ok(r) = dip_game::report::Report::from_stage_text(&t) {
        let _ = dip_game::plain::plain(&r, &dip_game::plain::PlainStyle::default());
    }
}

/// The stage files of examples/stages, and the CONFLICTED.TXT and
/// WINTERED.TXT its turn makes (written in a temporary copy).
fn stage_seeds() -> Vec<Vec<u8>> {
    let mut seeds = seeds_of(&["examples/stages/SCANNED.TXT", "examples/stages/PARSED.TXT"]);
    let dir = std::env::temp_dir().join(format!("dip-fuzz-stages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    for f in ["GAME.TXT", "SCANNED.TXT", "PARSED.TXT"] {
        let _ = std::fs::write(dir.join(f), repo_file(&format!("examples/stages/{f}")));
    }
    let stages = dip_game::gamedir::Stages {
        scan: false,
        parse: false,
        ..dip_game::gamedir::Stages::all()
    };
    if dip_game::gamedir::run(&dir, &stages, None, &dip_play::Variants::new()).is_ok() {
        for f in ["CONFLICTED.TXT", "WINTERED.TXT"] {
            seeds.extend(std::fs::read(dir.join(f)));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    seeds
}

/// Map edits (Seismic play).
pub fn map_edits(data: &[u8]) {
    let _ = dip_variants::seismic::apply(standard(), &text(data), "fuzz.edits");
}

/// Pictures: PNG, BMP, ICO, TIF and PICT.
pub fn pictures(data: &[u8]) {
    let _ = dip_render::raster::decode_picture(data);
}

/// Mac PICT pictures, read directly (a mutated PNG or BMP seldom becomes one).
pub fn pictures_pict(data: &[u8]) {
    let _ = dip_render::pict::decode_pict(data);
}

/// Map shapes files and Realpolitik `.rgn` files.
pub fn shapes(data: &[u8]) {
    let v = standard();
    let t = text(data);
    let _ = dip_render::Shapes::parse(&v.map, &t, "fuzz.shapes");
    let _ = dip_render::Shapes::from_rgn(&v.map, &t, "fuzz.rgn");
}

fn seeds_of(files: &[&str]) -> Vec<Vec<u8>> {
    files.iter().map(|f| repo_file(f)).collect()
}

fn png_seed() -> Vec<u8> {
    let svg =
        "<svg xmlns='http://www.w3.org/2000/svg' width='3' height='2'><rect width='3' height='2' fill='red'/></svg>";
    dip_render::raster::pixmap(svg)
        .ok()
        .and_then(|pm| dip_render::raster::encode_png(&pm).ok())
        .unwrap_or_default()
}

fn bmp_seed() -> Vec<u8> {
    // 2 × 2, 24 bits, bottom-up.
    let mut b = b"BM".to_vec();
    let data = [0u8, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 9, 9, 9, 0];
    b.extend_from_slice(&(54 + data.len() as u32).to_le_bytes());
    b.extend_from_slice(&[0, 0, 0, 0]);
    b.extend_from_slice(&54u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    b.extend_from_slice(&[0; 24]);
    b.extend_from_slice(&data);
    b
}

/// QuickDraw pictures: version 2 with the file header, an 8-bit packed
/// pixel map through a mask region; version 1, a 1-bit bitmap; version 2,
/// 32-bit direct pixels packed by component.
fn pict_seeds() -> Vec<Vec<u8>> {
    let rect = |r: [u8; 4]| r.iter().flat_map(|&v| [0, v]).collect::<Vec<u8>>();
    let picture = |v2: bool, frame: [u8; 4], ops: &[u8]| {
        let mut p = vec![0, 0];
        p.extend(rect(frame));
        if v2 {
            p.extend([0x00, 0x11, 0x02, 0xFF, 0x0C, 0x00, 0xFF, 0xFF]);
            p.extend([0; 22]);
        } else {
            p.extend([0x11, 0x01]);
        }
        p.extend_from_slice(ops);
        if v2 && p.len() % 2 == 1 {
            p.push(0);
        }
        p.extend(if v2 { &[0x00, 0xFF][..] } else { &[0xFF][..] });
        p
    };
    // A pixel map's fields after its bounds: pack type, 72 dpi, pixel type,
    // size, components and their size.
    let pixmap = |pack: u8, kind: u8, bits: u8, cmps: u8, cmp_bits: u8| {
        let mut f = vec![0, 0, 0, pack, 0, 0, 0, 0, 0, 0x48, 0, 0, 0, 0x48, 0, 0];
        f.extend([0, kind, 0, bits, 0, cmps, 0, cmp_bits]);
        f.extend([0; 12]);
        f
    };
    let mut first = vec![0x00, 0xA1, 0, 100, 0, 2, 7, 7, 0x00, 0x99, 0x80, 10];
    first.extend(rect([0, 0, 2, 10]));
    first.extend(pixmap(0, 0, 8, 1, 8));
    first.extend([0, 0, 0, 0, 0x80, 0, 0, 1]);
    first.extend([0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 128, 0, 255, 255]);
    first.extend(rect([0, 0, 2, 10]));
    first.extend(rect([0, 0, 2, 10]));
    first.extend([0, 0, 0, 10]);
    first.extend(rect([0, 0, 2, 10]));
    first.extend([2, 0xF7, 1, 11, 9, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    let mut with_header = vec![0; 512];
    with_header.extend(picture(true, [0, 0, 2, 10], &first));

    let mut second = vec![0xA0, 0, 1, 0x98, 0, 2];
    second.extend(rect([0, 0, 2, 16]));
    second.extend(rect([0, 0, 2, 16]));
    second.extend(rect([0, 0, 2, 16]));
    second.extend([0, 0, 0b1010_1010, 0b0101_0101, 0xF0, 0x0F]);

    let mut third = vec![0x00, 0x9A, 0, 0, 0, 0xFF, 0x80, 8];
    third.extend(rect([0, 0, 2, 2]));
    third.extend(pixmap(4, 16, 32, 3, 8));
    third.extend(rect([0, 0, 2, 2]));
    third.extend(rect([0, 0, 2, 2]));
    third.extend([0, 0, 7, 5, 200, 0, 0, 200, 9, 9, 2, 0xFB, 50]);
    vec![
        with_header,
        picture(false, [0, 0, 2, 16], &second),
        picture(true, [0, 0, 2, 2], &third),
    ]
}

/// Every target.
pub fn targets() -> Vec<Target> {
    let mut all = vec![
        target("orders", orders, order_seeds),
        target("position", position, || {
            seeds_of(&["examples/spring-1901/position.txt"])
        }),
        target("gamefile", gamefile, game_file_seeds),
        target("gamedir_run", gamedir_run, game_dir_seeds),
        target("variant_native", variant_native, || {
            seeds_of(&["variants/pure.variant", "variants/crowded.variant"])
        }),
        target("variant_dipwork", variant_dipwork, dipwork_seeds),
        target("variant_dpjudge", variant_dpjudge, || {
            seeds_of(&["crates/dip-variants/tests/fixtures/dpjudge/duel.map"])
        }),
        target("variant_realpolitik", variant_realpolitik, realpolitik_seeds),
        target("record", record, || {
            seeds_of(&["examples/game1905/current/HISTORY.REC"])
        }),
        target("mila", mila, mila_seeds),
        target("dipfile", dipfile, dip_file_seeds),
        target("analyse", analyse, analyse_seeds),
        target("cases", cases, case_seeds),
        target("variant_jdip", variant_jdip, || vec![jdip_seed()]),
        target("variant_jdip_zip", variant_jdip_zip, || vec![jdip_zip_seed()]),
        target("stagefile", stagefile, stage_seeds),
        target("http_body", http_body, http::seeds),
        target("map_edits", map_edits, || {
            vec![b"remove-border * bre eng\nadd-border A wal pic\nadd-border F wal pic\n".to_vec()]
        }),
        target("pictures", pictures, picture_seeds),
        target("pictures_pict", pictures_pict, pict_seeds),
        target("shapes", shapes, || {
            let t = repo_file("variants/standard.shapes");
            vec![t[..t.len().min(20_000)].to_vec()]
        }),
    ];
    all.extend(daide::targets());
    all
}

fn target(name: &'static str, run: fn(&[u8]), seeds: fn() -> Vec<Vec<u8>>) -> Target {
    Target { name, run, seeds }
}

fn order_seeds() -> Vec<Vec<u8>> {
    seeds_of(&[
        "examples/orders/orders.txt",
        "examples/spring-1901/orders.txt",
        "examples/game/meine/ORDERS.TXT",
    ])
}

fn game_file_seeds() -> Vec<Vec<u8>> {
    seeds_of(&[
        "examples/game/meine/GAME.TXT",
        "examples/game/PROJECT.TXT",
        "examples/game/meine/ORDERS.TXT",
    ])
}

/// A game directory's GAME.TXT and ORDERS.TXT, a NUL between them.
fn game_dir_seeds() -> Vec<Vec<u8>> {
    [
        "examples/game/meine",
        "examples/game1905/02-F1901M",
        "examples/game1905/04-S1902R",
    ]
    .iter()
    .map(|d| {
        let mut seed = repo_file(&format!("{d}/GAME.TXT"));
        seed.push(0);
        seed.extend(repo_file(&format!("{d}/ORDERS.TXT")));
        seed
    })
    .collect()
}

/// A DipWork variant's VARIANT.TXT and FIELDS.TXT (names in any case), a
/// NUL between them.
fn dipwork_seeds() -> Vec<Vec<u8>> {
    let d = "crates/dip-variants/tests/fixtures/dipwork/mini/";
    let find = |n: &str| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(d);
        std::fs::read_dir(&dir)
            .ok()
            .and_then(|rd| {
                rd.flatten()
                    .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(n))
                    .and_then(|e| std::fs::read(e.path()).ok())
            })
            .unwrap_or_default()
    };
    let mut s = find("VARIANT.TXT");
    s.push(0);
    s.extend(find("FIELDS.TXT"));
    vec![s]
}

/// Each file of a Realpolitik variant, its number (in name order) first.
fn realpolitik_seeds() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dip-variants/tests/fixtures/realpolitik/Tiny");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut s = vec![i as u8];
            s.extend(std::fs::read(f).unwrap_or_default());
            s
        })
        .collect()
}

/// The first game of MILA's recorded games.
fn mila_seeds() -> Vec<Vec<u8>> {
    let all = repo_file("crates/dip-game/tests/data/mila-3games.jsonl");
    let first = all.split(|&b| b == b'\n').next().unwrap_or_default().to_vec();
    vec![first]
}

/// The first three .dip files of the example game's history, NULs between.
fn dip_file_seeds() -> Vec<Vec<u8>> {
    let v = standard();
    let text = String::from_utf8_lossy(&repo_file("examples/game1905/current/HISTORY.REC")).into_owned();
    let Ok(rec) = dip_game::record::GameRecord::from_text(&v.map, &text, "HISTORY.REC") else {
        return vec![Vec::new()];
    };
    let files = dip_game::dipfile::to_dip_files(&v.map, &rec, "g");
    vec![files
        .iter()
        .take(3)
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\0")
        .into_bytes()]
}

/// The example control file with a result table, and a string doubled.
fn analyse_seeds() -> Vec<Vec<u8>> {
    let mut s = repo_file("examples/ratings/club.ctl");
    s.push(0);
    s.extend(repo_file("examples/ratings/spring.res"));
    vec![s, b"SET s = 'ab'\nSET s = s + s\nECHO s\n".to_vec()]
}

fn case_seeds() -> Vec<Vec<u8>> {
    seeds_of(&[
        "cases/jdip/sample.txt",
        "cases/jdip/reader.txt",
        "cases/jdip/order-reading.txt",
        "cases/datc/6a-basic.cases",
    ])
}

fn picture_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![png_seed(), bmp_seed()];
    seeds.extend(pict_seeds().into_iter().take(1));
    seeds
}

/// A watchdog over the input being tried: one that runs longer than the
/// limit is a hang; its file is copied to the hang path and `on_hang`
/// called with it (the stable runner saves it and stops: a reader cannot
/// be interrupted).
pub struct Watchdog {
    running: std::sync::Arc<std::sync::Mutex<Option<(PathBuf, PathBuf, std::time::Instant)>>>,
}

impl Watchdog {
    pub fn start(limit: std::time::Duration, on_hang: impl Fn(&std::path::Path) + Send + 'static) -> Watchdog {
        let running: std::sync::Arc<std::sync::Mutex<Option<(PathBuf, PathBuf, std::time::Instant)>>> =
            Default::default();
        let seen = running.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_millis(50).min(limit));
            let mut guard = seen.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((current, hang, since)) = guard.as_ref() {
                if since.elapsed() > limit {
                    let _ = std::fs::copy(current, hang);
                    let hang = hang.clone();
                    *guard = None;
                    drop(guard);
                    on_hang(&hang);
                }
            }
        });
        Watchdog { running }
    }

    /// An input starts: it is in `current`, and goes to `hang` if it hangs.
    pub fn begin(&self, current: &std::path::Path, hang: &std::path::Path) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((current.to_path_buf(), hang.to_path_buf(), std::time::Instant::now()));
    }

    /// The input returned in time.
    pub fn end(&self) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// A small deterministic random source (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// Words that have broken readers before: huge and negative numbers, a
/// byte-order mark, invalid UTF-8, path tricks, keywords of every format.
const TOKENS: &[&[u8]] = &[
    b"0",
    b"-1",
    b"4294967295",
    b"2147483647",
    b"99999999999999999999",
    b"-2147483648",
    b"\xEF\xBB\xBF",
    b"\xff\xfe",
    b"\xc3",
    b"../",
    b"/etc/passwd",
    b"\0",
    b"\n",
    b"\r\n",
    b" ",
    b"%",
    b"*",
    b"#",
    b"\"",
    b"END\n",
    b"NATION ",
    b"UNITS\n",
    b"phase spring 1901 movement\n",
    b"orders\n",
    b"end\n",
    b"at=3000000,3000000",
    b"#INCLUDE inc.ctl\n",
    b"SET s = s + s\n",
    b"MAP /etc/passwd\n",
    b"variant /etc/passwd\n",
    b"CONVOY_RELEVANT_UNITNR 4294967295\n",
    b"S A par - bur",
    b"C A lon - nwy",
    b"F stp/sc",
];

/// One to four random changes: bytes flipped, cut, doubled, swapped lines,
/// a token inserted, the input cut short.
pub fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut d = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let n = d.len();
        match rng.below(8) {
            0 if n > 0 => {
                let i = rng.below(n);
                d[i] ^= 1 << rng.below(8);
            }
            1 if n > 0 => {
                let i = rng.below(n);
                let len = rng.below((n - i).min(64) + 1);
                d.drain(i..i + len);
            }
            2 if n > 0 => {
                let i = rng.below(n);
                let len = rng.below((n - i).min(256) + 1);
                let copy = d[i..i + len].to_vec();
                let at = rng.below(n + 1);
                d.splice(at..at, copy);
            }
            3 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let at = rng.below(n + 1);
                d.splice(at..at, t.iter().copied());
            }
            4 if n > 0 => d.truncate(rng.below(n)),
            5 => {
                // Swap two lines.
                let text = String::from_utf8_lossy(&d).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                    d = lines.join("\n").into_bytes();
                }
            }
            6 if n > 0 => {
                // A number somewhere replaced by a huge one.
                let i = rng.below(n);
                if let Some(j) = d[i..].iter().position(|b| b.is_ascii_digit()) {
                    let t = TOKENS[2 + rng.below(4)];
                    d.splice(i + j..i + j + 1, t.iter().copied());
                }
            }
            _ => {
                let i = rng.below(n + 1);
                d.insert(i, rng.next_u64() as u8);
            }
        }
    }
    d
}

/// Runs a target on `iterations` mutations of its seeds (and the seeds
/// themselves); returns the first input that panicked, with the message.
pub fn run_for(t: &Target, iterations: usize, seed: u64) -> Option<(Vec<u8>, String)> {
    let seeds = (t.seeds)();
    let mut rng = Rng::new(seed);
    let mut inputs: Vec<Vec<u8>> = seeds.clone();
    for i in 0..iterations {
        let s = &seeds[i % seeds.len().max(1)];
        inputs.push(mutate(s, &mut rng));
        if inputs.len() >= 16 || i + 1 == iterations {
            for input in inputs.drain(..) {
                let run = t.run;
                let r = std::panic::catch_unwind(|| run(&input));
                if let Err(e) = r {
                    let msg = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    return Some((input, msg));
                }
            }
        }
    }
    for input in inputs {
        let run = t.run;
        if let Err(e) = std::panic::catch_unwind(|| run(&input)) {
            let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
            return Some((input, msg));
        }
    }
    None
}

#[cfg(test)]
mod jdip_seed_tests {
    /// The jDip seeds are valid plugins, so mutations start from inputs
    /// that reach the whole reader.
    #[test]
    fn jdip_seeds_are_readable_plugins() {
        let p = dip_variants::jdip::Plugin::from_zip_bytes("seed.zip", super::jdip_zip_seed()).unwrap();
        assert!(p.variant("tiny").unwrap().model.build("seed").is_ok());
        let seed = super::jdip_seed();
        let parts: Vec<&[u8]> = seed.split(|&b| b == 0).filter(|p| !p.is_empty()).collect();
        assert_eq!(parts.len(), 3);
    }
}

#[cfg(test)]
mod watchdog_tests {
    use super::Watchdog;
    use std::time::Duration;

    /// The stable runner waited for ever on an input that hung: the
    /// watchdog saves it and says so.
    #[test]
    fn an_input_that_hangs_was_waited_for_for_ever() {
        let dir = std::env::temp_dir().join(format!("dip-fuzz-dog-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let (current, hang) = (dir.join("current"), dir.join("hang"));
        std::fs::write(&current, b"endless").unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let dog = Watchdog::start(Duration::from_millis(100), move |p| {
            let _ = tx.send(p.to_path_buf());
        });
        // An input that returns in time is no hang.
        dog.begin(&current, &hang);
        dog.end();
        assert!(rx.recv_timeout(Duration::from_millis(400)).is_err());
        // One that does not return is.
        dog.begin(&current, &hang);
        let saved = rx.recv_timeout(Duration::from_secs(5)).expect("the hang is reported");
        assert_eq!(std::fs::read(saved).unwrap(), b"endless");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
