//! `dip-fuzz [TARGET|all] [SECONDS] [CORPUS]`, `dip-fuzz list`,
//! `dip-fuzz seeds DIR`: runs fuzz targets on stable
//! Rust for a set time (scripts/fuzz.sh adds a memory limit). Inputs come
//! from the seeds and from CORPUS/TARGET/ (kept between runs); every input
//! that panics is saved in CORPUS/crashes/, and the input being tried is in
//! CORPUS/current-TARGET, so an abort (memory limit) leaves it behind.
//! An input that runs longer than the watchdog's limit (10 s, or
//! `DIP_FUZZ_TIMEOUT` seconds) is a hang: it is saved in CORPUS/crashes/
//! and the run stops with exit 1 (a reader cannot be interrupted).

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().cloned().unwrap_or_else(|| "all".into());
    if which == "seeds" {
        write_seeds(&PathBuf::from(
            args.get(1).cloned().unwrap_or_else(|| "fuzz/corpus".into()),
        ));
        return;
    }
    if which == "list" {
        for t in dip_fuzz::targets() {
            println!("{}", t.name);
        }
        return;
    }
    let secs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let corpus = PathBuf::from(args.get(2).cloned().unwrap_or_else(|| "fuzz/corpus".into()));
    let targets: Vec<_> = dip_fuzz::targets()
        .into_iter()
        .filter(|t| which == "all" || t.name == which)
        .collect();
    if targets.is_empty() {
        let names: Vec<&str> = dip_fuzz::targets().iter().map(|t| t.name).collect();
        eprintln!("dip-fuzz: unknown target `{which}`; targets: all, {}", names.join(", "));
        std::process::exit(2);
    }
    // Quiet panics: each is reported once, with the saved input.
    std::panic::set_hook(Box::new(|_| {}));
    let limit = std::env::var("DIP_FUZZ_TIMEOUT")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(Duration::from_secs(10), Duration::from_secs);
    let dog = dip_fuzz::Watchdog::start(limit, move |hang| {
        eprintln!(
            "dip-fuzz: an input ran over {limit:?} (a hang): saved in {}",
            hang.display()
        );
        std::process::exit(1);
    });
    let per = Duration::from_secs(secs.max(1)) / targets.len() as u32;
    let crashes: usize = targets.iter().map(|t| fuzz(t, per, &corpus, &dog)).sum();
    if crashes > 0 {
        eprintln!(
            "dip-fuzz: {crashes} inputs crashed or took over 2 s (in {}/crashes)",
            corpus.display()
        );
        std::process::exit(1);
    }
}

/// `dip-fuzz seeds DIR`: each target's seeds as DIR/reader_TARGET/seed-N,
/// the starting corpus for cargo-fuzz.
fn write_seeds(dir: &Path) {
    for t in dip_fuzz::targets() {
        let d = dir.join(format!("reader_{}", t.name));
        let _ = std::fs::create_dir_all(&d);
        for (i, s) in (t.seeds)().iter().enumerate() {
            let _ = std::fs::write(d.join(format!("seed-{i}")), s);
        }
    }
}

/// The inputs to start from: the target's seeds and what earlier runs
/// kept in its corpus folder.
fn pool_of(t: &dip_fuzz::Target, dir: &Path) -> Vec<Vec<u8>> {
    let mut pool = (t.seeds)();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if let Ok(b) = std::fs::read(e.path()) {
                pool.push(b);
            }
        }
    }
    pool
}

/// Fuzzes one target for `per`: mutated inputs from its pool, each
/// watched for a hang; the number that crashed or were slow (saved in
/// CORPUS/crashes/).
fn fuzz(t: &dip_fuzz::Target, per: Duration, corpus: &Path, dog: &dip_fuzz::Watchdog) -> usize {
    let dir = corpus.join(t.name);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::create_dir_all(corpus.join("crashes"));
    let mut pool = pool_of(t, &dir);
    let mut rng = dip_fuzz::Rng::new(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    );
    let start = Instant::now();
    let mut n = 0u64;
    let mut crashes = 0;
    let current = corpus.join(format!("current-{}", t.name));
    while start.elapsed() < per {
        let base = &pool[rng.below(pool.len())];
        let input = dip_fuzz::mutate(base, &mut rng);
        let _ = std::fs::write(&current, &input);
        let t0 = Instant::now();
        let hang = corpus.join("crashes").join(format!("{}-hang-{n}", t.name));
        dog.begin(&current, &hang);
        let run = t.run;
        let r = std::panic::catch_unwind(|| run(&input));
        dog.end();
        let slow = t0.elapsed() > Duration::from_secs(2);
        n += 1;
        if r.is_err() || slow {
            let kind = if r.is_err() { "crash" } else { "slow" };
            let path = corpus.join("crashes").join(format!("{}-{kind}-{n}", t.name));
            let _ = std::fs::write(&path, &input);
            eprintln!("{}: {kind}: input saved in {}", t.name, path.display());
            crashes += 1;
        } else if n.checked_rem(97) == Some(0) && pool.len() < 512 {
            // Keep some inputs to mutate further, next time too.
            let _ = std::fs::write(dir.join(format!("kept-{n}")), &input);
            pool.push(input);
        }
    }
    let _ = std::fs::remove_file(&current);
    println!("{}: {n} inputs in {:.0?}", t.name, start.elapsed());
    crashes
}
