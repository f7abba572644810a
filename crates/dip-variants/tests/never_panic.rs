//! Damaged files in every format give errors, never panics.

use dip_variants::formats::{self, Format};
use dip_variants::{dipwork, dpjudge, Model};

/// Lines of `text` with random damage: dropped, duplicated or cut words.
fn damage(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut words: Vec<&str> = line.split(' ').collect();
        match rng.u8(..20) {
            0 => continue,
            1 => {
                out.push_str(line);
                out.push('\n');
            }
            2 if !words.is_empty() => {
                let n = rng.usize(..words.len());
                words.truncate(n);
            }
            3 if words.len() > 1 => {
                let i = rng.usize(..words.len());
                words.remove(i);
            }
            4 if words.len() > 1 => {
                let (i, j) = (rng.usize(..words.len()), rng.usize(..words.len()));
                words.swap(i, j);
            }
            5 => words.push("xyz"),
            _ => {}
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

fn standard_model() -> Model {
    let v = dip_variants::load("crowded").unwrap();
    let mut m = Model::from_variant(&v);
    m.fill_clockwise(&v);
    m
}

#[test]
fn damaged_dipwork_files_never_panic() {
    let (vt, ft, gt) = dipwork::write(&standard_model());
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..60 {
        let v = damage(&vt, &mut rng);
        let f = damage(&ft, &mut rng);
        let g = damage(&gt, &mut rng);
        if let Ok(p) = dipwork::read_params(&v, "VARIANT.TXT") {
            if let Ok(m) = dipwork::read(&p, "VARIANT.TXT", &f, "FIELDS.TXT", Some((&g, "GAME.TXT")), "x") {
                let _ = m.build("x");
            }
        }
    }
}

#[test]
fn damaged_dpjudge_files_never_panic() {
    let text = dpjudge::write(&standard_model());
    let mut rng = fastrand::Rng::with_seed(12);
    for _ in 0..60 {
        if let Ok(m) = dpjudge::read_str(&damage(&text, &mut rng), "x.map") {
            let _ = m.build("x.map");
        }
    }
}

#[test]
fn damaged_realpolitik_files_never_panic() {
    let files = dip_variants::realpolitik::write(&standard_model());
    let dir = std::env::temp_dir().join(format!("dip-rp-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = fastrand::Rng::with_seed(13);
    for _ in 0..40 {
        for (name, text) in &files {
            std::fs::write(dir.join(name), damage(text, &mut rng)).unwrap();
        }
        let _ = formats::load_any(&dir.join("crowded.var").to_string_lossy());
    }
    let _ = Format::Realpolitik;
}

#[test]
fn damaged_map_edits_never_panic() {
    let v = dip_variants::load("standard").unwrap();
    let edits = "remove-border * bre eng\nadd-border A wal pic\nremove-coasts spa\nadd-coast bul/nc bla\nremove-border A lon yor\n";
    let mut rng = fastrand::Rng::with_seed(14);
    for _ in 0..60 {
        let _ = dip_variants::seismic::apply(&v, &damage(edits, &mut rng), "x.edits");
    }
}
