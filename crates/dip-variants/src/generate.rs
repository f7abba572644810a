//! Generated test maps: a grid of provinces with seas, coasts and any
//! number of powers, for benchmarks and property tests.

use dip_core::map::{EdgeFlags, Terrain, UnitType};

use crate::model::{MEdge, MPower, MProvince, MUnit, Model};

/// A map of `provinces` provinces (a grid, about a quarter of it sea) and
/// `powers` powers with three home centres and three units each; about half
/// of the provinces are supply centres. The same arguments give the same map.
pub fn grid(provinces: usize, powers: usize, seed: u64) -> Model {
    let cols = ((provinces as f64).sqrt().ceil() as usize).max(2);
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut rnd = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let pos = |i: usize| (i % cols, i / cols);
    // Seas: a quarter of the cells, never two seas stacked in a column.
    let mut sea = vec![false; provinces];
    for (i, s) in sea.iter_mut().enumerate() {
        let (x, y) = pos(i);
        *s = x % 2 == 1 && y % 2 == 1 && rnd() % 2 == 0;
    }
    let neighbours = |i: usize| -> Vec<usize> {
        let (x, y) = pos(i);
        let mut out = Vec::new();
        for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1)] {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            if nx < 0 || ny < 0 || nx >= cols as i64 {
                continue;
            }
            let j = ny as usize * cols + nx as usize;
            if j < provinces {
                out.push(j);
            }
        }
        out
    };
    let coastal: Vec<bool> = (0..provinces)
        .map(|i| !sea[i] && neighbours(i).iter().any(|&j| sea[j]))
        .collect();
    let name = |i: usize| format!("p{i:03}");
    let mut m = Model {
        name: format!("grid{provinces}"),
        title: format!("Generated grid: {provinces} provinces, {powers} powers"),
        description: vec!["A generated map for benchmarks (dip variant generate).".into()],
        unit_types: vec![UnitType::army(), UnitType::fleet()],
        ..Model::default()
    };
    for p in 0..powers {
        m.powers.push(MPower {
            abbr: format!("P{p:02}"),
            name: format!("Power{p:02}"),
            adjective: format!("Power{p:02}ish"),
            ..MPower::default()
        });
    }
    for i in 0..provinces {
        let t = if sea[i] {
            Terrain::Sea
        } else if coastal[i] {
            Terrain::Coast
        } else {
            Terrain::Land
        };
        let mut p = MProvince::new(&name(i), &format!("Province {i}"), t);
        let (x, y) = pos(i);
        p.at = Some((x as f32 * 60.0 + 30.0, y as f32 * 60.0 + 30.0));
        p.center = !sea[i] && rnd() % 5 < 3;
        m.provinces.push(p);
    }
    // Homes: three land provinces a power, spread over the grid.
    let land: Vec<usize> = (0..provinces).filter(|&i| !sea[i]).collect();
    for p in 0..powers {
        if land.is_empty() {
            break;
        }
        for k in 0..3 {
            let idx = land[(p * land.len() / powers.max(1) + k * 2) % land.len()];
            let prov = &mut m.provinces[idx];
            if !prov.homes.is_empty() {
                continue;
            }
            prov.center = true;
            prov.homes.push(format!("P{p:02}"));
            let letter = if coastal[idx] && k == 2 { 'F' } else { 'A' };
            m.units.push(MUnit {
                power: format!("P{p:02}"),
                letter,
                region: name(idx),
                src: (0, 0),
            });
        }
    }
    for i in 0..provinces {
        for j in neighbours(i) {
            let army = !sea[i] && !sea[j];
            let fleet = (sea[i] || coastal[i])
                && (sea[j] || coastal[j])
                && (sea[i] || sea[j] || neighbours(i).iter().any(|&k| sea[k] && neighbours(j).contains(&k)));
            for (ut, ok) in [(0, army), (1, fleet)] {
                if ok {
                    for (a, b) in [(i, j), (j, i)] {
                        m.edges.push(MEdge {
                            ut,
                            from: name(a),
                            to: name(b),
                            flags: EdgeFlags::default(),
                            src: (0, 0),
                        });
                    }
                }
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    #[test]
    fn generate_with_zero_provinces_does_not_divide_by_zero() {
        for n in 0..4 {
            let m = super::grid(n, 3, 1);
            assert_eq!(m.provinces.len(), n);
        }
    }
}
