//! The committed maps made from Natural Earth by
//! scripts/natural-earth-maps.sh (variants/standard.shapes,
//! variants/ancmed.shapes, variants/modern.shapes, variants/world.shapes)
//! are consistent with their variants: every province drawn, every unit, coast, name and centre point inside its own
//! province and clear of its border, no two provinces overlapping, and
//! exactly the variant's neighbours touching (but for the pairs the `.geo`
//! file names `across`, where the board's graph is not planar).

use dip_core::{ProvinceId, Terrain};
use dip_render::regions::{inside, Ring};
use dip_render::{Picture, Shapes};

/// How far inside its province a unit's point must be: a click there, or
/// a little beside it, must hit that province.
const UNIT_MARGIN: f32 = 9.0;

/// A map drawn from geography: its variant, its shapes, and what its
/// `.geo` file says of it.
struct GeoMap {
    name: &'static str,
    v: dip_variants::Variant,
    shapes: Shapes,
    /// Neighbours that meet across a strait or at a corner (`across A B`).
    across: Vec<(String, String)>,
    /// Names drawn over the water beside a small island (`name A … offshore`).
    offshore: Vec<String>,
}

const GEO: [(&str, &str); 4] = [
    ("standard", include_str!("../../../scripts/maps/standard.geo")),
    ("ancmed", include_str!("../../../scripts/maps/ancmed.geo")),
    ("modern", include_str!("../../../scripts/maps/modern.geo")),
    ("world", include_str!("../../../scripts/maps/world.geo")),
];

fn maps() -> Vec<GeoMap> {
    GEO.iter()
        .map(|&(name, geo)| {
            let v = dip_variants::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let (file, text) = dip_render::shapes::bundled_shapes(name).expect("bundled");
            let shapes = Shapes::parse(&v.map, text, file).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut across = Vec::new();
            let mut offshore = Vec::new();
            for line in geo.lines() {
                let words: Vec<&str> = line.split('#').next().unwrap_or("").split_whitespace().collect();
                match words.as_slice() {
                    ["across", a, b, ..] => across.push((a.to_string(), b.to_string())),
                    ["name", a, _, "offshore"] => offshore.push(a.to_string()),
                    _ => {}
                }
            }
            GeoMap {
                name,
                v,
                shapes,
                across,
                offshore,
            }
        })
        .collect()
}

/// The distance from the point to the nearest edge of the rings.
fn to_border(rings: &[Ring], (px, py): (f32, f32)) -> f32 {
    let mut best = f32::MAX;
    for r in rings {
        for k in 0..r.len() {
            let (ax, ay) = (r[k].0 as f32, r[k].1 as f32);
            let (bx, by) = (r[(k + 1) % r.len()].0 as f32, r[(k + 1) % r.len()].1 as f32);
            let (dx, dy) = (bx - ax, by - ay);
            let len2 = (dx * dx + dy * dy).max(1e-9);
            let t = (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0);
            let (qx, qy) = (ax + t * dx - px, ay + t * dy - py);
            best = best.min((qx * qx + qy * qy).sqrt());
        }
    }
    best
}

/// Each province's pixels (pixel centres inside its rings), one label per
/// pixel; the count of pixels two provinces claim.
fn raster(shapes: &Shapes) -> (Vec<u16>, usize) {
    const NONE: u16 = u16::MAX;
    let (w, h) = (shapes.width as usize, shapes.height as usize);
    let mut label = vec![NONE; w * h];
    let mut doubled = 0;
    for (i, rings) in shapes.provinces.iter().enumerate() {
        // Crossings of each row's centre line, per row.
        let mut rows: Vec<Vec<f32>> = vec![Vec::new(); h];
        for r in rings {
            for k in 0..r.len() {
                let (x0, y0) = (r[k].0 as f32, r[k].1 as f32);
                let (x1, y1) = (r[(k + 1) % r.len()].0 as f32, r[(k + 1) % r.len()].1 as f32);
                let (lo, hi) = (y0.min(y1), y0.max(y1));
                let first = (lo - 0.5).ceil().max(0.0) as usize;
                let mut y = first;
                while y < h && (y as f32 + 0.5) < hi {
                    let cy = y as f32 + 0.5;
                    if cy >= lo {
                        rows[y].push(x0 + (cy - y0) / (y1 - y0) * (x1 - x0));
                    }
                    y += 1;
                }
            }
        }
        for (y, xs) in rows.iter_mut().enumerate() {
            xs.sort_by(f32::total_cmp);
            for pair in xs.chunks(2) {
                let [a, b] = pair else { continue };
                let from = (a - 0.5).ceil().max(0.0) as usize;
                let to = ((b - 0.5).ceil().max(0.0) as usize).min(w);
                for x in from..to {
                    let cell = &mut label[y * w + x];
                    if *cell != NONE && *cell != i as u16 {
                        doubled += 1;
                    }
                    *cell = i as u16;
                }
            }
        }
    }
    (label, doubled)
}

#[test]
fn every_province_of_a_geographic_map_has_a_shape() {
    for GeoMap { name, v, shapes, .. } in maps() {
        for p in v.map.province_ids() {
            assert!(
                !shapes.provinces[p.index()].is_empty(),
                "{name}: {} has no shape",
                v.map.province(p).abbr
            );
        }
    }
}

#[test]
fn every_unit_point_lies_well_inside_its_own_province_and_no_other() {
    for GeoMap {
        name: map, v, shapes, ..
    } in maps()
    {
        let pic = Picture::new(&v);
        for r in 0..v.map.num_regions() {
            let r = dip_core::RegionId(r as u16);
            let p = v.map.province_of(r);
            let at = pic.region_point(r);
            let name = v.map.region_name(r);
            assert!(
                shapes.places.units[r.index()].is_some(),
                "{map}: {name} has no unit point in the shapes file"
            );
            let rings = &shapes.provinces[p.index()];
            assert!(
                inside(rings, at),
                "{map}: {name}'s unit point {at:?} is outside its province"
            );
            let d = to_border(rings, at);
            assert!(d >= UNIT_MARGIN, "{map}: {name}'s unit point is {d:.1} from its border");
            for q in v.map.province_ids() {
                if q != p {
                    assert!(
                        !inside(&shapes.provinces[q.index()], at),
                        "{map}: {name}'s unit point is inside {}",
                        v.map.province(q).abbr
                    );
                }
            }
        }
    }
}

#[test]
fn names_and_centres_lie_inside_their_provinces() {
    for GeoMap {
        name: map,
        v,
        shapes,
        offshore,
        ..
    } in maps()
    {
        for p in v.map.province_ids() {
            let abbr = &v.map.province(p).abbr;
            let rings = &shapes.provinces[p.index()];
            let name = shapes.places.names[p.index()].unwrap_or_else(|| panic!("{map}: {abbr} has no name point"));
            if !offshore.contains(abbr) {
                assert!(inside(rings, name), "{map}: {abbr}'s name point {name:?} is outside it");
            }
            if v.map.supply_centers().contains(&p) {
                let c = shapes.places.centres[p.index()].unwrap_or_else(|| panic!("{map}: {abbr} has no centre point"));
                assert!(inside(rings, c), "{map}: {abbr}'s centre point {c:?} is outside it");
                assert!(
                    to_border(rings, c) >= 5.0,
                    "{map}: {abbr}'s centre marker crosses its border"
                );
            }
        }
    }
}

#[test]
fn no_name_lies_under_a_unit_or_over_a_centre() {
    // A name's text (11.5-unit bold letters under 7.5 units wide) against
    // a unit's icon (28 × 22 with its outline) at every unit point, and
    // against every centre marker (radius 6).
    for GeoMap {
        name: map, v, shapes, ..
    } in maps()
    {
        for p in v.map.province_ids() {
            let abbr = &v.map.province(p).abbr;
            let Some((x, y)) = shapes.places.names[p.index()] else {
                continue;
            };
            let half = (7.5 * abbr.chars().count() as f32 + 4.0) / 2.0;
            for (r, at) in shapes.places.units.iter().enumerate() {
                let Some((ux, uy)) = *at else { continue };
                assert!(
                    (x - ux).abs() >= half + 14.0 || (y - uy).abs() >= 6.0 + 11.0,
                    "{map}: {abbr}'s name lies under the unit of {}",
                    v.map.region_name(dip_core::RegionId(r as u16))
                );
            }
            for (q, c) in shapes.places.centres.iter().enumerate() {
                let Some((cx, cy)) = *c else { continue };
                let dx = ((x - cx).abs() - half).max(0.0);
                let dy = ((y - cy).abs() - 6.0).max(0.0);
                assert!(
                    (dx * dx + dy * dy).sqrt() >= 5.0,
                    "{map}: {abbr}'s name lies over the centre of {}",
                    v.map.province(ProvinceId(q as u16)).abbr
                );
            }
        }
    }
}

#[test]
fn no_two_names_overlap() {
    // Two names written over each other read as neither, and the one on
    // top takes the other's clicks (Modern's Ligurian Sea under Monaco).
    for GeoMap {
        name: map, v, shapes, ..
    } in maps()
    {
        let boxes: Vec<(&str, f32, f32, f32)> = v
            .map
            .province_ids()
            .filter_map(|p| {
                let abbr = v.map.province(p).abbr.as_str();
                let (x, y) = shapes.places.names[p.index()]?;
                Some((abbr, x, y, (7.5 * abbr.chars().count() as f32 + 4.0) / 2.0))
            })
            .collect();
        for (i, &(a, x, y, half)) in boxes.iter().enumerate() {
            for &(b, x2, y2, half2) in &boxes[i + 1..] {
                assert!(
                    (x - x2).abs() >= half + half2 || (y - y2).abs() >= 12.0,
                    "{map}: the names of {a} and {b} overlap"
                );
            }
        }
    }
}

#[test]
fn no_two_provinces_of_a_geographic_map_overlap() {
    for GeoMap { name, shapes, .. } in maps() {
        let (label, doubled) = raster(&shapes);
        let drawn = label.iter().filter(|&&l| l != u16::MAX).count();
        // Whole-number points on both sides of a shared border: nothing but
        // rounding may be claimed twice.
        assert!(
            doubled * 2000 <= drawn,
            "{name}: {doubled} of {drawn} pixels lie in two provinces"
        );
    }
}

#[test]
fn the_provinces_that_touch_on_the_map_are_exactly_the_neighbours() {
    for GeoMap {
        name,
        v,
        shapes,
        across,
        ..
    } in maps()
    {
        let (label, _) = raster(&shapes);
        let (w, h) = (shapes.width as usize, shapes.height as usize);
        let n = v.map.num_provinces();
        // Pixel sides shared by two provinces, per pair.
        let mut sides = vec![0u32; n * n];
        for y in 0..h {
            for x in 0..w {
                let a = label[y * w + x];
                for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                    if nx < w && ny < h {
                        let b = label[ny * w + nx];
                        if a != b && a != u16::MAX && b != u16::MAX {
                            sides[a as usize * n + b as usize] += 1;
                            sides[b as usize * n + a as usize] += 1;
                        }
                    }
                }
            }
        }
        let mut wrong = Vec::new();
        for a in v.map.province_ids() {
            for b in v.map.province_ids() {
                if a >= b {
                    continue;
                }
                let impassable = |p: ProvinceId| v.map.province(p).terrain == Terrain::Impassable;
                if impassable(a) || impassable(b) {
                    continue;
                }
                let (aa, ba) = (&v.map.province(a).abbr, &v.map.province(b).abbr);
                let touch = sides[a.index() * n + b.index()] >= 2;
                let pair = format!("{name}: {aa}-{ba}");
                if across.iter().any(|(x, y)| (x == aa && y == ba) || (x == ba && y == aa)) {
                    // Neighbours across a strait, which the picture leaves open.
                    if !v.map.provinces_adjacent(a, b) {
                        wrong.push(format!("{pair} are named `across` but are no neighbours"));
                    }
                    continue;
                }
                match (v.map.provinces_adjacent(a, b), touch) {
                    (true, false) => wrong.push(format!("{pair} are neighbours but do not touch")),
                    (false, true) => wrong.push(format!("{pair} touch but are no neighbours")),
                    _ => {}
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}

#[test]
fn a_split_coasts_point_lies_nearest_to_the_seas_of_that_coast() {
    for GeoMap { v, shapes, .. } in maps() {
        let pic = Picture::new(&v);
        let fleet = v.map.find_unit_type("F").expect("fleets");
        for p in v.map.province_ids() {
            for &c in v.map.coasts(p) {
                let at = pic.region_point(c);
                let seas = v
                    .map
                    .province_ids()
                    .filter(|&s| v.map.province(s).terrain == Terrain::Sea && v.map.provinces_adjacent(p, s));
                let nearest = seas
                    .map(|s| (to_border(&shapes.provinces[s.index()], at), s))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .expect("a coast has seas")
                    .1;
                assert!(
                    v.map.reaches(fleet, c, nearest),
                    "{} lies nearest to {}, which that coast does not reach",
                    v.map.region_name(c),
                    v.map.province(nearest).abbr
                );
            }
        }
    }
}

#[test]
fn every_geographic_picture_is_drawn_on_its_shapes() {
    // Shapes::for_variant falls back to grown shapes when the bundled file
    // does not load: the picture must be the file's.
    for m in maps() {
        let pic = Picture::new(&m.v);
        assert!(!pic.shapes.generated, "{} is drawn on grown shapes", m.name);
        assert_eq!(pic.shapes.provinces, m.shapes.provinces, "{}", m.name);
    }
}

#[test]
fn the_variants_on_the_standard_board_are_drawn_on_its_shapes() {
    // Same provinces at the same points (1898, Chaos) or without points
    // (Fleet Rome): the standard outlines and the standard unit points.
    let std_v = dip_variants::standard();
    let (file, text) = dip_render::shapes::bundled_shapes("standard").expect("bundled");
    let std_shapes = Shapes::parse(&std_v.map, text, file).expect("the standard shapes load");
    for name in ["1898", "chaos", "fleetrome", "crowded"] {
        let v = dip_variants::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let pic = Picture::new(&v);
        for p in v.map.province_ids() {
            let abbr = &v.map.province(p).abbr;
            let Some(sp) = std_v.map.find_province(abbr) else {
                continue;
            };
            assert_eq!(
                pic.shapes.provinces[p.index()],
                std_shapes.provinces[sp.index()],
                "{name}: {abbr}'s outline"
            );
            assert_eq!(
                pic.province_point(p),
                Picture::new(&std_v).province_point(sp),
                "{name}: {abbr}'s unit point"
            );
        }
    }
}
