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
    let g = Grid::new(provinces, cols, &mut rnd);
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
    m.provinces = g.provinces(&mut rnd);
    homes_and_units(&mut m, &g, powers);
    m.edges = g.borders();
    m
}

/// The grid's cells: which are sea, and which land touches a sea.
struct Grid {
    provinces: usize,
    cols: usize,
    sea: Vec<bool>,
    coastal: Vec<bool>,
}

impl Grid {
    fn new(provinces: usize, cols: usize, rnd: &mut impl FnMut() -> usize) -> Grid {
        let mut g = Grid {
            provinces,
            cols,
            sea: vec![false; provinces],
            coastal: Vec::new(),
        };
        // Seas: a quarter of the cells, never two seas stacked in a column.
        for i in 0..provinces {
            let (x, y) = g.pos(i);
            g.sea[i] = x % 2 == 1 && y % 2 == 1 && rnd().is_multiple_of(2);
        }
        g.coastal = (0..provinces)
            .map(|i| !g.sea[i] && g.neighbours(i).iter().any(|&j| g.sea[j]))
            .collect();
        g
    }

    fn pos(&self, i: usize) -> (usize, usize) {
        (i % self.cols, i / self.cols)
    }

    /// Six neighbours a cell: left, right, up, down and one diagonal.
    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = self.pos(i);
        let mut out = Vec::new();
        for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1)] {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            if nx < 0 || ny < 0 || nx >= self.cols as i64 {
                continue;
            }
            let j = ny as usize * self.cols + nx as usize;
            if j < self.provinces {
                out.push(j);
            }
        }
        out
    }

    /// The provinces, about three in five land ones a supply centre.
    fn provinces(&self, rnd: &mut impl FnMut() -> usize) -> Vec<MProvince> {
        let mut out = Vec::new();
        for i in 0..self.provinces {
            let t = if self.sea[i] {
                Terrain::Sea
            } else if self.coastal[i] {
                Terrain::Coast
            } else {
                Terrain::Land
            };
            let mut p = MProvince::new(&name(i), &format!("Province {i}"), t);
            let (x, y) = self.pos(i);
            p.at = Some((x as f32 * 60.0 + 30.0, y as f32 * 60.0 + 30.0));
            p.center = !self.sea[i] && rnd() % 5 < 3;
            out.push(p);
        }
        out
    }

    /// Borders both ways to each neighbour: armies over land, fleets
    /// between seas and coasts (two coasts only when they share a sea).
    fn borders(&self) -> Vec<MEdge> {
        let (sea, coastal) = (&self.sea, &self.coastal);
        let mut edges = Vec::new();
        for i in 0..self.provinces {
            for j in self.neighbours(i) {
                let army = !sea[i] && !sea[j];
                let fleet = (sea[i] || coastal[i])
                    && (sea[j] || coastal[j])
                    && (sea[i]
                        || sea[j]
                        || self
                            .neighbours(i)
                            .iter()
                            .any(|&k| sea[k] && self.neighbours(j).contains(&k)));
                for (ut, ok) in [(0, army), (1, fleet)] {
                    if ok {
                        for (a, b) in [(i, j), (j, i)] {
                            edges.push(MEdge {
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
        edges
    }
}

fn name(i: usize) -> String {
    format!("p{i:03}")
}

/// Homes: three land provinces a power, spread over the grid, each with a
/// unit (a fleet on the third when it is coastal).
fn homes_and_units(m: &mut Model, g: &Grid, powers: usize) {
    let land: Vec<usize> = (0..g.provinces).filter(|&i| !g.sea[i]).collect();
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
            let letter = if g.coastal[idx] && k == 2 { 'F' } else { 'A' };
            m.units.push(MUnit {
                power: format!("P{p:02}"),
                letter,
                region: name(idx),
                src: (0, 0),
            });
        }
    }
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
