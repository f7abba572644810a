//! Generates `variants/standard.shapes`, the standard map's province
//! outlines, from Natural Earth's public-domain land polygons.
//!
//! ```text
//! npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz   # in target/natural-earth
//! cargo run --release -p dip-render --example standard-shapes -- \
//!     target/natural-earth/package/land-50m.json > variants/standard.shapes
//! ```
//!
//! Steps: decode the TopoJSON; project longitude/latitude onto the
//! variant's 1200 × 1000 canvas with an equirectangular projection fitted
//! (least squares) to the provinces' `at=` points and the places below;
//! rasterise the land; grow the seas over the water and then the land
//! provinces over the land from their `at=` points (nearest point first),
//! never taking a pixel next to a province that is no neighbour in the
//! variant; give small islands near a
//! province to it (Sicily, Zealand) and leave the rest as land of no
//! province (Ireland, Sardinia, Iceland); trace and simplify the outlines,
//! each border once. Borders that the variant has but the picture lacks,
//! and the other way round, are listed on stderr.
//!
//! Only this generator needs the data; the build and the tests read the
//! committed output.

use dip_render::regions::{self, Seed, NONE};
use dip_render::shapes::Shapes;
use std::collections::VecDeque;

/// Longitude and latitude of the places the standard map's `at=` points
/// stand for (a city or the middle of the province), used to fit the
/// projection.
const PLACES: &[(&str, f32, f32)] = &[
    ("lon", -0.13, 51.5),
    ("par", 2.35, 48.86),
    ("ber", 13.4, 52.5),
    ("vie", 16.37, 48.2),
    ("mos", 37.6, 55.75),
    ("rom", 12.5, 41.9),
    ("war", 21.0, 52.23),
    ("bud", 19.04, 47.5),
    ("con", 28.97, 41.0),
    ("ank", 32.85, 39.93),
    ("mun", 11.57, 48.14),
    ("kie", 10.13, 54.32),
    ("edi", -3.19, 55.95),
    ("lvp", -2.98, 53.4),
    ("bre", -4.49, 48.39),
    ("mar", 5.37, 43.3),
    ("nap", 14.27, 40.85),
    ("ven", 12.33, 45.44),
    ("tri", 13.77, 45.65),
    ("smy", 27.14, 38.42),
    ("stp", 30.3, 59.94),
    ("tun", 10.18, 36.8),
    ("bel", 4.35, 50.85),
    ("hol", 4.9, 52.37),
    ("den", 9.5, 56.0),
    ("nwy", 8.0, 61.0),
    ("swe", 15.0, 60.0),
    ("por", -8.2, 39.6),
    ("gre", 22.0, 39.5),
    ("ser", 20.9, 44.0),
    ("rum", 25.0, 45.5),
    ("bul", 25.2, 42.7),
];

/// How fast a province grows against its neighbours (1 when not listed):
/// oceans wide, Switzerland small, and a few provinces nudged so that the
/// picture has the variant's borders.
const WEIGHTS: &[(&str, f32)] = &[
    ("swi", 0.4),
    ("nao", 1.8),
    ("nwg", 1.5),
    ("mao", 1.4),
    ("bar", 1.3),
    ("iri", 0.8),
    ("nwy", 1.3),
    ("sev", 1.3),
    ("rum", 1.15),
    ("ven", 1.3),
    ("tri", 1.15),
    ("nap", 1.2),
];

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/natural-earth/package/land-50m.json".into());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let topo: serde_json::Value = serde_json::from_str(&text).expect("TopoJSON");
    let polys = decode_land(&topo);
    let v = dip_variants::standard();
    let map = &v.map;

    // Fit x = a·lon + b and y = c·lat + d to the places.
    let mut lx = Vec::new();
    let mut ly = Vec::new();
    for &(abbr, lon, lat) in PLACES {
        let p = map.find_province(abbr).expect("province");
        let (x, y) = map.province(p).pos.expect("at=");
        lx.push((lon, x));
        ly.push((lat, y));
    }
    let (a, b) = fit(&lx);
    let (c, d) = fit(&ly);
    eprintln!("projection: x = {a:.3}·lon + {b:.1}, y = {c:.3}·lat + {d:.1}");

    let (w, h) = (1200usize, 1000usize);
    let rings: Vec<Vec<(f32, f32)>> = polys
        .iter()
        .map(|r| r.iter().map(|&(lon, lat)| (a * lon + b, c * lat + d)).collect())
        .collect();
    let mut class = rasterise(w, h, &rings);
    // Switzerland, an inland province, and the other provinces: land = 1.
    let n = map.num_provinces();
    let swi = map.find_province("swi").map(|p| p.0);
    let seed = |i: usize, p: &dip_core::map::Province| {
        let (x, y) = p.pos.expect("at=");
        let mut s = Seed::new(x, y, u8::from(p.terrain != dip_core::Terrain::Sea), i as u16);
        if let Some(&(_, w)) = WEIGHTS.iter().find(|(a, _)| *a == p.abbr) {
            s.weight = w;
        }
        s
    };
    let land_seeds: Vec<Seed> = map
        .provinces()
        .iter()
        .enumerate()
        .map(|(i, p)| seed(i, p))
        .filter(|s| s.class == 1)
        .collect();
    let sea_seeds: Vec<Seed> = map
        .provinces()
        .iter()
        .enumerate()
        .map(|(i, p)| seed(i, p))
        .filter(|s| s.class == 0)
        .collect();
    let class_of: Vec<u8> = map
        .provinces()
        .iter()
        .map(|p| u8::from(p.terrain != dip_core::Terrain::Sea))
        .collect();
    // Tiny lakes inside land would be left as holes: fill water bodies of
    // under 400 pixels that do not reach the edge.
    fill_small_lakes(w, h, &mut class, 400);
    // Land first, then the seas; a region never takes a pixel next to a
    // province it does not border in the variant (Switzerland borders
    // anything); what that leaves goes to the nearest region afterwards.
    // The seas first, then the land: a province does not take a pixel next
    // to a sea it does not border (so Rome stays off the Adriatic and
    // inland provinces off every shore).
    let allowed = |a: u16, b: u16| -> bool {
        let n = n as u16;
        a >= n
            || b >= n
            || Some(a) == swi
            || Some(b) == swi
            || map.provinces_adjacent(dip_core::ProvinceId(a), dip_core::ProvinceId(b))
    };
    let mut label = vec![NONE; w * h];
    regions::grow_into(&mut label, w, h, &class, &sea_seeds, 2000.0, Some(&allowed));
    regions::fill_gaps(&mut label, w, h, &class, &class_of, 40);
    regions::grow_into(&mut label, w, h, &class, &land_seeds, 330.0, Some(&allowed));
    regions::fill_gaps(&mut label, w, h, &class, &class_of, 330);
    let neutral = n as u16;
    assign_islands(w, h, &class, &mut label, 14, neutral);
    let outlines = regions::outlines(w, h, &label, n + 1, 0.9, 1);

    let mut shapes = Shapes {
        width: w as u32,
        height: h as u32,
        provinces: outlines[..n].to_vec(),
        land: outlines[n].iter().filter(|r| area(r).abs() >= 12.0).cloned().collect(),
        points: Vec::new(),
        generated: false,
    };
    for rings in &mut shapes.provinces {
        rings.retain(|r| area(r).abs() >= 4.0);
    }

    // Compare the picture's neighbours with the variant's borders.
    let touching = regions::touching(w, h, &label);
    let mut extra = Vec::new();
    for &(x, y) in &touching {
        if x as usize >= n || y as usize >= n {
            continue;
        }
        let (px, py) = (dip_core::ProvinceId(x), dip_core::ProvinceId(y));
        if !map.provinces_adjacent(px, py) {
            extra.push(format!("{}-{}", map.province(px).abbr, map.province(py).abbr));
        }
    }
    let mut missing = Vec::new();
    for px in map.province_ids() {
        for py in map.province_ids() {
            if px < py && map.provinces_adjacent(px, py) && !touching.contains(&(px.0, py.0)) {
                missing.push(format!("{}-{}", map.province(px).abbr, map.province(py).abbr));
            }
        }
    }
    eprintln!(
        "borders drawn but not in the variant ({}): {}",
        extra.len(),
        extra.join(" ")
    );
    eprintln!(
        "borders in the variant not drawn ({}): {}",
        missing.len(),
        missing.join(" ")
    );
    let header = format!(
        "The standard map's provinces: generated by crates/dip-render/examples/standard-shapes.rs\n\
         from Natural Earth land polygons (public domain, naturalearthdata.com, 1:50m),\n\
         projected as x = {a:.3}*lon + {b:.1}, y = {c:.3}*lat + {d:.1}.\n\
         Format: docs/map-shapes.md. Do not edit by hand: change the generator and run it again."
    );
    print!("{}", shapes.to_text(map, &header));
}

/// Least-squares line y = a·x + b.
fn fit(pts: &[(f32, f32)]) -> (f32, f32) {
    let n = pts.len() as f64;
    let sx: f64 = pts.iter().map(|p| p.0 as f64).sum();
    let sy: f64 = pts.iter().map(|p| p.1 as f64).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 as f64).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| p.0 as f64 * p.1 as f64).sum();
    let a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    let b = (sy - a * sx) / n;
    (a as f32, b as f32)
}

/// Every ring of the `land` object as longitude/latitude points.
fn decode_land(topo: &serde_json::Value) -> Vec<Vec<(f32, f32)>> {
    let t = &topo["transform"];
    let (sx, sy) = (t["scale"][0].as_f64().unwrap(), t["scale"][1].as_f64().unwrap());
    let (tx, ty) = (t["translate"][0].as_f64().unwrap(), t["translate"][1].as_f64().unwrap());
    let arcs: Vec<Vec<(f32, f32)>> = topo["arcs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|arc| {
            let (mut x, mut y) = (0i64, 0i64);
            arc.as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    x += p[0].as_i64().unwrap();
                    y += p[1].as_i64().unwrap();
                    ((x as f64 * sx + tx) as f32, (y as f64 * sy + ty) as f32)
                })
                .collect()
        })
        .collect();
    let mut rings = Vec::new();
    let mut ring_of = |idx: &serde_json::Value| {
        let mut ring: Vec<(f32, f32)> = Vec::new();
        for i in idx.as_array().unwrap() {
            let i = i.as_i64().unwrap();
            let mut pts = if i >= 0 {
                arcs[i as usize].clone()
            } else {
                arcs[!i as usize].clone()
            };
            if i < 0 {
                pts.reverse();
            }
            if !ring.is_empty() {
                pts.remove(0);
            }
            ring.extend(pts);
        }
        // Rings that cross the antimeridian: keep longitudes continuous.
        for k in 1..ring.len() {
            let prev = ring[k - 1].0;
            while ring[k].0 - prev > 180.0 {
                ring[k].0 -= 360.0;
            }
            while prev - ring[k].0 > 180.0 {
                ring[k].0 += 360.0;
            }
        }
        // ... and then put the ring's middle back between -180° and 180°.
        let mean = ring.iter().map(|p| p.0).sum::<f32>() / ring.len().max(1) as f32;
        let shift = -((mean + 180.0) / 360.0).floor() * 360.0;
        for p in &mut ring {
            p.0 += shift;
        }
        rings.push(ring);
    };
    for g in topo["objects"]["land"]["geometries"].as_array().unwrap() {
        match g["type"].as_str() {
            Some("Polygon") => g["arcs"].as_array().unwrap().iter().for_each(&mut ring_of),
            Some("MultiPolygon") => {
                for poly in g["arcs"].as_array().unwrap() {
                    poly.as_array().unwrap().iter().for_each(&mut ring_of);
                }
            }
            _ => {}
        }
    }
    rings
}

/// Even-odd scanline fill of the rings: 1 inside (land), 0 outside.
fn rasterise(w: usize, h: usize, rings: &[Vec<(f32, f32)>]) -> Vec<u8> {
    let mut out = vec![0u8; w * h];
    let mut xs: Vec<f32> = Vec::new();
    for y in 0..h {
        let fy = y as f32 + 0.5;
        xs.clear();
        for r in rings {
            for k in 0..r.len() {
                let (x0, y0) = r[k];
                let (x1, y1) = r[(k + 1) % r.len()];
                if (y0 <= fy) != (y1 <= fy) {
                    xs.push(x0 + (fy - y0) / (y1 - y0) * (x1 - x0));
                }
            }
        }
        xs.sort_by(f32::total_cmp);
        for pair in xs.chunks(2) {
            if let [a, b] = pair {
                let x0 = (a - 0.5).ceil().max(0.0) as usize;
                let x1 = ((b - 0.5).floor() + 1.0).clamp(0.0, w as f32) as usize;
                for x in x0.min(w)..x1 {
                    out[y * w + x] = 1;
                }
            }
        }
    }
    out
}

fn components(w: usize, h: usize, pred: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let mut seen = vec![false; w * h];
    let mut comps = Vec::new();
    for s in 0..w * h {
        if seen[s] || !pred(s) {
            continue;
        }
        let mut comp = Vec::new();
        let mut q = VecDeque::from([s]);
        seen[s] = true;
        while let Some(i) = q.pop_front() {
            comp.push(i);
            let (x, y) = (i % w, i / w);
            for (nx, ny) in [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)] {
                if nx < w && ny < h {
                    let j = ny * w + nx;
                    if !seen[j] && pred(j) {
                        seen[j] = true;
                        q.push_back(j);
                    }
                }
            }
        }
        comps.push(comp);
    }
    comps
}

fn fill_small_lakes(w: usize, h: usize, class: &mut [u8], max: usize) {
    let comps = components(w, h, |i| class[i] == 0);
    for c in comps {
        let edge = c
            .iter()
            .any(|&i| i % w == 0 || i % w == w - 1 || i / w == 0 || i / w == h - 1);
        if c.len() < max && !edge {
            for i in c {
                class[i] = 1;
            }
        }
    }
}

/// Land the provinces did not reach: a piece within `reach` pixels of a
/// province joins the nearest one unless it is large; the rest is `neutral`.
/// The largest island (in pixels) that joins a nearby province: Sicily
/// (about 1,200) does, Ireland (about 3,800) does not.
const MAX_ISLAND: usize = 2000;

fn assign_islands(w: usize, h: usize, class: &[u8], label: &mut [u16], reach: usize, neutral: u16) {
    // Distance (in steps, crossing anything) and label of the nearest land province pixel.
    let mut dist = vec![u16::MAX; w * h];
    let mut near = vec![NONE; w * h];
    let mut q = VecDeque::new();
    for i in 0..w * h {
        if class[i] == 1 && label[i] != NONE {
            dist[i] = 0;
            near[i] = label[i];
            q.push_back(i);
        }
    }
    while let Some(i) = q.pop_front() {
        if dist[i] as usize >= reach {
            continue;
        }
        let (x, y) = (i % w, i / w);
        for (nx, ny) in [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)] {
            if nx < w && ny < h {
                let j = ny * w + nx;
                if dist[j] == u16::MAX {
                    dist[j] = dist[i] + 1;
                    near[j] = near[i];
                    q.push_back(j);
                }
            }
        }
    }
    let snapshot = label.to_vec();
    for c in components(w, h, |i| class[i] == 1 && snapshot[i] == NONE) {
        // Islands the size of Ireland stay apart, however near.
        let best = c
            .iter()
            .filter(|&&i| near[i] != NONE)
            .min_by_key(|&&i| dist[i])
            .map(|&i| near[i])
            .filter(|_| c.len() <= MAX_ISLAND);
        let l = best.unwrap_or(neutral);
        for i in c {
            label[i] = l;
        }
    }
}

fn area(r: &[(i32, i32)]) -> f32 {
    let mut a = 0.0;
    for k in 0..r.len() {
        let (x0, y0) = r[k];
        let (x1, y1) = r[(k + 1) % r.len()];
        a += (x0 as f32) * (y1 as f32) - (x1 as f32) * (y0 as f32);
    }
    a / 2.0
}
