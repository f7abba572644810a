//! Each fuzz target briefly: mutations of real files into every reader, no
//! panic. `DIP_FUZZ_ITERATIONS` sets the number of inputs per target
//! (default 150); scripts/fuzz.sh runs them for longer.

fn iterations() -> usize {
    std::env::var("DIP_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

#[test]
fn every_reader_survives_mutated_input() {
    let mut failed = Vec::new();
    for t in dip_fuzz::targets() {
        let start = std::time::Instant::now();
        if let Some((input, msg)) = dip_fuzz::run_for(&t, iterations(), 1) {
            let dir = std::env::temp_dir().join("dip-fuzz-crashes");
            let _ = std::fs::create_dir_all(&dir);
            let path = dir.join(format!("{}-crash", t.name));
            let _ = std::fs::write(&path, &input);
            failed.push(format!("{}: {msg} (input kept in {})", t.name, path.display()));
        }
        eprintln!("{}: {:?}", t.name, start.elapsed());
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn every_target_has_seeds() {
    for t in dip_fuzz::targets() {
        let seeds = (t.seeds)();
        assert!(!seeds.is_empty() && seeds.iter().all(|s| !s.is_empty()), "{}", t.name);
    }
}

/// The PICT target starts from pictures the reader draws, not from ones it
/// refuses at once.
#[test]
fn the_pict_seeds_are_pictures_that_are_read() {
    let t = dip_fuzz::targets()
        .into_iter()
        .find(|t| t.name == "pictures_pict")
        .unwrap();
    for (i, seed) in (t.seeds)().iter().enumerate() {
        let pm = dip_render::pict::decode_pict(seed).unwrap_or_else(|e| panic!("seed {i}: {e}"));
        assert!(
            pm.pixels().iter().any(|p| p.alpha() == 255),
            "seed {i}: something drawn"
        );
    }
}
