//! The layout of a map without coordinates grows about linearly with its
//! provinces: it was quadratic (every pair of provinces asked for adjacency,
//! every pair of points repelled each round; over 20 s at 20,000
//! provinces). Checked by the growth from one size to eight times it, not
//! by a wall-clock bound (the machine's speed and load do not matter).

use std::time::{Duration, Instant};

/// A generated grid map of `n` provinces with every coordinate removed.
fn map_without_coordinates(n: usize) -> dip_core::Map {
    let mut m = dip_variants::generate::grid(n, 4, 1);
    for p in m.provinces.iter_mut() {
        p.at = None;
        p.label = None;
        for c in p.coasts.iter_mut() {
            c.1 = None;
        }
    }
    m.build("grid").unwrap().map
}

/// The fastest of three layouts (the least disturbed by other work).
fn time_layout(map: &dip_core::Map) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            let pts = dip_render::shapes::layout(map);
            assert_eq!(pts.len(), map.num_provinces());
            t.elapsed()
        })
        .min()
        .unwrap()
}

#[test]
fn layout_without_coordinates_was_quadratic() {
    // Both sizes above the 1,500 provinces of the exact (quadratic) layout.
    let small = map_without_coordinates(2_000);
    let large = map_without_coordinates(16_000);
    let (a, b) = (time_layout(&small), time_layout(&large));
    let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-6);
    eprintln!("layout: 2,000 provinces {a:?}, 16,000 {b:?}: {ratio:.1} times");
    // Eight times the provinces: about 8 to 11 times the time when linear
    // or n log n, 64 when quadratic. The bound leaves room for a loaded
    // machine (at four times the provinces, 12.2 under load failed a bound
    // of 8 that a quadratic layout would pass only at 16).
    assert!(ratio < 30.0, "2,000 provinces {a:?}, 16,000 {b:?}: {ratio:.1} times");
}
