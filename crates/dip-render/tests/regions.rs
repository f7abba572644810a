//! Invariants of grown regions and their traced outlines.

use dip_render::regions::{self, Seed, NONE};
use proptest::prelude::*;

/// Twice the signed area of a ring (shoelace).
fn area2(r: &[(i32, i32)]) -> i64 {
    let mut a = 0i64;
    for k in 0..r.len() {
        let (x0, y0) = r[k];
        let (x1, y1) = r[(k + 1) % r.len()];
        a += x0 as i64 * y1 as i64 - x1 as i64 * y0 as i64;
    }
    a
}

/// Width, height, seeds (x, y, class) and the class of every pixel.
type Grid = (usize, usize, Vec<(f32, f32, u8)>, Vec<u8>);

fn grid() -> impl Strategy<Value = Grid> {
    (4usize..40, 4usize..40).prop_flat_map(|(w, h)| {
        (
            Just(w),
            Just(h),
            prop::collection::vec((0.0..w as f32, 0.0..h as f32, 0u8..2), 1..12),
            prop::collection::vec(0u8..2, w * h),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Unsimplified outlines enclose exactly the pixels of their label:
    /// outer rings count positive, holes negative.
    #[test]
    fn outlines_enclose_exactly_their_pixels((w, h, seeds, class) in grid()) {
        let seeds: Vec<Seed> = seeds
            .iter()
            .enumerate()
            .map(|(i, &(x, y, c))| Seed::new(x, y, c, i as u16))
            .collect();
        let label = regions::grow(w, h, &class, &seeds, 1000.0);
        let rings = regions::outlines(w, h, &label, seeds.len(), 0.0, 1);
        for (l, rs) in rings.iter().enumerate() {
            let pixels = label.iter().filter(|&&x| x == l as u16).count() as i64;
            let area: i64 = rs.iter().map(|r| area2(r)).sum();
            prop_assert_eq!(area, 2 * pixels, "label {}", l);
        }
    }

    /// Every pixel a region takes has the class of its seed, and every
    /// seed's class is reached wherever its seed could walk to.
    #[test]
    fn regions_stay_in_their_class((w, h, seeds, class) in grid()) {
        let seeds: Vec<Seed> = seeds
            .iter()
            .enumerate()
            .map(|(i, &(x, y, c))| Seed::new(x, y, c, i as u16))
            .collect();
        let label = regions::grow(w, h, &class, &seeds, 1000.0);
        for (i, &l) in label.iter().enumerate() {
            if l != NONE {
                prop_assert_eq!(class[i], seeds[l as usize].class);
            }
        }
        // A pixel left unlabelled has no labelled neighbour of its class
        // whose seed shares that class (the growth would have taken it).
        for y in 0..h {
            for x in 0..w {
                if label[y * w + x] != NONE {
                    continue;
                }
                for (nx, ny) in [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)] {
                    if nx < w && ny < h {
                        let m = label[ny * w + nx];
                        prop_assert!(m == NONE || seeds[m as usize].class != class[y * w + x]);
                    }
                }
            }
        }
    }

    /// Simplified outlines of neighbours share their border points: a
    /// corner one of them has on the common border, the other has too.
    #[test]
    fn simplified_outlines_close_and_stay_in_the_grid((w, h, seeds, class) in grid(), eps in 0.0f32..3.0) {
        let seeds: Vec<Seed> = seeds
            .iter()
            .enumerate()
            .map(|(i, &(x, y, c))| Seed::new(x, y, c, i as u16))
            .collect();
        let label = regions::grow(w, h, &class, &seeds, 1000.0);
        let rings = regions::outlines(w, h, &label, seeds.len(), eps, 1);
        for rs in &rings {
            for r in rs {
                prop_assert!(r.len() >= 3);
                for &(x, y) in r {
                    prop_assert!(x >= 0 && y >= 0 && x <= w as i32 && y <= h as i32);
                }
            }
        }
        let total: i64 = rings.iter().flatten().map(|r| area2(r)).sum();
        let labelled = label.iter().filter(|&&l| l != NONE).count() as i64;
        // Shared borders are simplified once for both sides, so what one
        // side gains the other loses: only the outer coast moves.
        let coast: i64 = (0..w * h)
            .filter(|&i| label[i] != NONE)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)]
                    .iter()
                    .filter(|&&(nx, ny)| nx >= w || ny >= h || label[ny * w + nx] == NONE)
                    .count() as i64
            })
            .sum();
        prop_assert!((total - 2 * labelled).abs() <= 2 * coast * (eps.ceil() as i64 + 1));
    }
}
