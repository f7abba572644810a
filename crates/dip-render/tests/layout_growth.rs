//! The layout of a map without coordinates grows about linearly with its
//! provinces: it was quadratic (every pair of provinces asked for adjacency,
//! every pair of points repelled each round; over 20 s at 20,000
//! provinces). Checked by the growth of the work it counts (border edges
//! read, pairs of points weighed, pulls along borders) from one size to
//! eight times it: counted, not timed, so the machine's speed and load do
//! not matter (a timed ratio failed under load).

use dip_render::shapes::{layout_counted, LayoutWork};

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

fn work(n: usize) -> LayoutWork {
    let map = map_without_coordinates(n);
    let (pts, work) = layout_counted(&map);
    assert_eq!(pts.len(), n);
    work
}

#[test]
fn layout_without_coordinates_was_quadratic() {
    // Both sizes above the 1,500 provinces of the exact (quadratic) layout.
    let (a, b) = (work(2_000), work(16_000));
    let ratio = b.total() as f64 / a.total() as f64;
    eprintln!("layout work: 2,000 provinces {a:?}, 16,000 {b:?}: {ratio:.2} times");
    // Eight times the provinces: 14.3 times the work now (a little more
    // than linear: 52 pairs a point a round at 2,000 provinces, 98 at
    // 16,000, as more points lie near each other on the larger map), 64
    // when quadratic (every pair of points weighed, as the exact layout
    // does: 68 times from 250 to 2,000 provinces; or a grid whose cells
    // each hold a share of all points). The count is exact, so the bound
    // needs no room for a loaded machine.
    assert!(ratio < 24.0, "2,000 provinces {a:?}, 16,000 {b:?}: {ratio:.2} times");
}
