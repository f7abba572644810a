//! Map shapes: one outline per province, in the `.shapes` text format
//! (docs/map-shapes.md), and shapes generated for variants without one.

use crate::regions::{self, Ring, Seed};
use dip_core::Map;

/// The picture of a map: a canvas and an outline per province.
#[derive(Clone, Debug, PartialEq)]
pub struct Shapes {
    pub width: u32,
    pub height: u32,
    /// Outlines per province, indexed like `map.provinces()`; empty where
    /// the province has no shape.
    pub provinces: Vec<Vec<Ring>>,
    /// Land that belongs to no province (islands, far shores).
    pub land: Vec<Ring>,
    /// Where units and names go when the map has no `at=` for a province.
    pub points: Vec<(f32, f32)>,
    /// The shapes were grown from points (no real geography): draw the
    /// borders between neighbours as lines.
    pub generated: bool,
    /// Where units, names and centres go, when the file says.
    pub places: Places,
}

/// Points a shapes file may give (`unit`, `name`, `centre` lines): they
/// belong to its outlines, so they win over the variant's `at=`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Places {
    /// Where a unit stands, per region (indexed like `map.regions()`).
    pub units: Vec<Option<(f32, f32)>>,
    /// Where the name is written, per province.
    pub names: Vec<Option<(f32, f32)>>,
    /// Where the supply-centre marker goes, per province.
    pub centres: Vec<Option<(f32, f32)>>,
}

impl Places {
    fn new(map: &Map) -> Places {
        Places {
            units: vec![None; map.num_regions()],
            names: vec![None; map.num_provinces()],
            centres: vec![None; map.num_provinces()],
        }
    }

    /// The point for a province's main region.
    pub fn unit(&self, map: &Map, p: dip_core::ProvinceId) -> Option<(f32, f32)> {
        self.units.get(map.main_region(p).index()).copied().flatten()
    }
}

/// A problem in a shapes file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct ShapesError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

const STANDARD_SHAPES: &str = include_str!("../../../variants/standard.shapes");
const ANCMED_SHAPES: &str = include_str!("../../../variants/ancmed.shapes");
const WORLD_SHAPES: &str = include_str!("../../../variants/world.shapes");
const MODERN_SHAPES: &str = include_str!("../../../variants/modern.shapes");

/// The shapes file bundled for a variant, by the variant's name.
pub fn bundled_shapes(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "standard" => Some(("variants/standard.shapes", STANDARD_SHAPES)),
        "ancmed" => Some(("variants/ancmed.shapes", ANCMED_SHAPES)),
        "world" => Some(("variants/world.shapes", WORLD_SHAPES)),
        "modern" => Some(("variants/modern.shapes", MODERN_SHAPES)),
        _ => None,
    }
}

impl Shapes {
    /// Reads a shapes file for `map`; `file` names it in errors.
    pub fn parse(map: &Map, text: &str, file: &str) -> Result<Shapes, ShapesError> {
        // A byte-order mark (editors on Windows write one) is no line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let err = |line: usize, message: String| ShapesError {
            file: file.to_string(),
            line,
            message,
        };
        let mut s = Shapes {
            width: 0,
            height: 0,
            provinces: vec![Vec::new(); map.num_provinces()],
            land: Vec::new(),
            points: map.provinces().iter().map(|p| p.pos.unwrap_or((0.0, 0.0))).collect(),
            generated: false,
            places: Places::new(map),
        };
        for (i, raw) in text.lines().enumerate() {
            let ln = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.splitn(3, char::is_whitespace);
            let kw = words.next().unwrap_or("");
            match kw {
                "canvas" => {
                    let w = words.next().and_then(|w| w.parse().ok());
                    let h = words.next().and_then(|h| h.trim().parse().ok());
                    match (w, h) {
                        (Some(w), Some(h)) if w > 0 && h > 0 => {
                            s.width = w;
                            s.height = h;
                        }
                        _ => {
                            return Err(err(
                                ln,
                                "expected `canvas WIDTH HEIGHT` with positive whole numbers".into(),
                            ))
                        }
                    }
                }
                "province" => {
                    let abbr = words.next().unwrap_or("");
                    let p = map
                        .find_province(abbr)
                        .ok_or_else(|| err(ln, format!("unknown province `{abbr}`")))?;
                    let rings = parse_path(words.next().unwrap_or("")).map_err(|m| err(ln, m))?;
                    s.provinces[p.index()].extend(rings);
                }
                "land" => {
                    let rest: String = words.collect::<Vec<_>>().join(" ");
                    s.land.extend(parse_path(&rest).map_err(|m| err(ln, m))?);
                }
                "unit" | "name" | "centre" => {
                    let name = words.next().unwrap_or("");
                    let at = parse_point(words.next().unwrap_or("").trim())
                        .ok_or_else(|| err(ln, format!("expected `{kw} PROVINCE X,Y` with whole numbers")))?;
                    let (abbr, coast) = match name.split_once('/') {
                        Some((a, c)) => (a, Some(c)),
                        None => (name, None),
                    };
                    let p = map
                        .find_province(abbr)
                        .ok_or_else(|| err(ln, format!("unknown province `{abbr}`")))?;
                    match (kw, coast) {
                        ("unit", None) => s.places.units[map.main_region(p).index()] = Some(at),
                        ("unit", Some(c)) => {
                            let r = map
                                .find_coast(p, c)
                                .ok_or_else(|| err(ln, format!("`{abbr}` has no coast `{c}`")))?;
                            s.places.units[r.index()] = Some(at);
                        }
                        (_, Some(_)) => return Err(err(ln, format!("a `{kw}` belongs to a province, not a coast"))),
                        ("name", None) => s.places.names[p.index()] = Some(at),
                        _ => s.places.centres[p.index()] = Some(at),
                    }
                }
                other => {
                    return Err(err(
                        ln,
                        format!("unknown line `{other}`: expected canvas, province, land, unit, name or centre"),
                    ));
                }
            }
        }
        if s.width == 0 {
            return Err(err(1, "no `canvas WIDTH HEIGHT` line".into()));
        }
        Ok(s)
    }

    /// The text of the shapes file.
    pub fn to_text(&self, map: &Map, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&format!("canvas {} {}\n", self.width, self.height));
        for (i, rings) in self.provinces.iter().enumerate() {
            if !rings.is_empty() {
                out.push_str(&format!("province {} {}\n", map.provinces()[i].abbr, path_data(rings)));
            }
        }
        for r in &self.land {
            out.push_str(&format!("land {}\n", path_data(std::slice::from_ref(r))));
        }
        let pt = |(x, y): (f32, f32)| format!("{},{}", x.round() as i64, y.round() as i64);
        for (r, at) in self.places.units.iter().enumerate() {
            if let (Some(at), Some(_)) = (at, map.regions().get(r)) {
                out.push_str(&format!(
                    "unit {} {}\n",
                    map.region_name(dip_core::RegionId(r as u16)),
                    pt(*at)
                ));
            }
        }
        for (kw, list) in [("name", &self.places.names), ("centre", &self.places.centres)] {
            for (i, at) in list.iter().enumerate() {
                if let (Some(at), Some(p)) = (at, map.provinces().get(i)) {
                    out.push_str(&format!("{kw} {} {}\n", p.abbr, pt(*at)));
                }
            }
        }
        out
    }

    /// Province shapes from a Realpolitik `.rgn` file's scanlines (each
    /// space's `x y length` runs, coasts included, in the order of the
    /// variant's provinces), traced into outlines.
    pub fn from_rgn(map: &Map, text: &str, file: &str) -> Result<Shapes, ShapesError> {
        // A byte-order mark (editors on Windows write one) is no line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let err = |line: usize, message: String| ShapesError {
            file: file.to_string(),
            line,
            message,
        };
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let mut i = 2.min(lines.len()); // `Variant` and the name
        let mut next = |what: &str| -> Result<(usize, &str), ShapesError> {
            let r = lines.get(i).copied().ok_or_else(|| {
                err(
                    lines.last().map_or(0, |l| l.0),
                    format!("the file ends where {what} was expected"),
                )
            })?;
            i += 1;
            Ok(r)
        };
        let mut runs: Vec<(u16, i64, i64, i64)> = Vec::new();
        for (pi, p) in map.provinces().iter().enumerate() {
            let (l, head) = next("`# spacename`")?;
            if !head.starts_with('#') {
                return Err(err(l, format!("expected `# {}`, found `{head}`", p.name)));
            }
            for part in 0..p.regions.len().max(1) {
                next("a unit position `x,y`")?;
                if part == 0 {
                    next("a name position `x,y`")?;
                }
                let (l, n) = next("the number of scanlines")?;
                let n: usize = n
                    .parse()
                    .map_err(|_| err(l, format!("expected the number of scanlines, found `{n}`")))?;
                for _ in 0..n {
                    let (l, sl) = next("a scanline `x y length`")?;
                    let v: Vec<i64> = sl.split_whitespace().filter_map(|w| w.parse().ok()).collect();
                    match v[..] {
                        [x, y, len] if (0..RGN_MAX).contains(&x) && (0..RGN_MAX).contains(&y) && (1..=RGN_MAX).contains(&len) && x + len <= RGN_MAX => {
                            runs.push((pi as u16, x, y, len))
                        }
                        _ => {
                            return Err(err(
                                l,
                                format!(
                                "expected a scanline `x y length` (whole numbers, inside 8000 × 8000, the largest .rgn map read), found `{sl}`"
                            ),
                            ))
                        }
                    }
                }
            }
        }
        let mut w = runs.iter().map(|r| (r.1 + r.3) as usize).max().unwrap_or(1);
        let mut h = runs.iter().map(|r| r.2 as usize + 1).max().unwrap_or(1);
        for p in map.provinces() {
            if let Some((x, y)) = p.pos {
                // Points outside the scanlines' 8000 × 8000 do not
                // enlarge the picture beyond it.
                w = w.max(x.clamp(0.0, RGN_MAX as f32) as usize + 20);
                h = h.max(y.clamp(0.0, RGN_MAX as f32) as usize + 20);
            }
        }
        let mut label = vec![regions::NONE; w * h];
        for &(pi, x, y, len) in &runs {
            let row = y as usize * w;
            label[row + x as usize..row + (x + len) as usize].fill(pi);
        }
        let provinces = regions::outlines(w, h, &label, map.num_provinces(), 0.6, 1);
        Ok(Shapes {
            width: w as u32,
            height: h as u32,
            provinces,
            land: Vec::new(),
            points: map.provinces().iter().map(|p| p.pos.unwrap_or((0.0, 0.0))).collect(),
            generated: false,
            places: Places::default(),
        })
    }

    /// The picture for a variant: its bundled shapes file; the standard
    /// shapes for a variant on the standard board (same provinces at the
    /// same points); else shapes grown around the provinces' points (laid
    /// out from the adjacency first when the variant gives none).
    pub fn for_variant(v: &dip_variants::Variant) -> Shapes {
        if let Some((file, text)) = bundled_shapes(&v.name) {
            if let Ok(s) = Shapes::parse(&v.map, text, file) {
                return s;
            }
        }
        if let Some(s) = standard_board(&v.map) {
            return s;
        }
        Shapes::generate(&v.map)
    }

    /// Shapes grown around the provinces' points: land provinces and seas
    /// each take the cells nearest to them, up to a radius.
    pub fn generate(map: &Map) -> Shapes {
        let points = layout(map);
        let nn = typical_spacing(&points);
        let (w, h) = canvas_of(&points, 0.62 * nn);
        let cell = 4usize;
        let (gw, gh) = (w as usize / cell, h as usize / cell);
        let class = vec![0u8; gw * gh];
        let seeds: Vec<Seed> = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| Seed::new(x / cell as f32, y / cell as f32, 0, i as u16))
            .collect();
        let label = regions::grow(gw, gh, &class, &seeds, 0.62 * nn / cell as f32);
        let provinces = regions::outlines(gw, gh, &label, points.len(), 1.4, cell as i32);
        Shapes {
            width: w,
            height: h,
            provinces,
            land: Vec::new(),
            points,
            generated: true,
            places: Places::default(),
        }
    }
}

/// The standard shapes, when `map` has the standard board's provinces at
/// the standard points (1898, Chaos, Crowded and other variants on the
/// standard map). Provinces the standard map lacks get no shape.
fn standard_board(map: &Map) -> Option<Shapes> {
    let std = dip_variants::standard();
    let (file, text) = bundled_shapes("standard")?;
    let base = Shapes::parse(&std.map, text, file).ok()?;
    let mut s = Shapes {
        provinces: vec![Vec::new(); map.num_provinces()],
        points: map.provinces().iter().map(|p| p.pos.unwrap_or((0.0, 0.0))).collect(),
        places: Places::new(map),
        ..base.clone()
    };
    let mut matched = 0;
    for (i, p) in map.provinces().iter().enumerate() {
        let Some(sp) = std.map.find_province(&p.abbr) else {
            continue;
        };
        // The same province at the same point; a variant without points
        // (Fleet Rome) is taken by its names alone.
        let same = match (p.pos, std.map.province(sp).pos) {
            (Some(a), Some(b)) => (a.0 - b.0).abs() < 40.0 && (a.1 - b.1).abs() < 40.0,
            (None, _) => true,
            _ => false,
        };
        if !same {
            continue;
        }
        matched += 1;
        s.provinces[i] = base.provinces[sp.index()].clone();
        s.places.names[i] = base.places.names[sp.index()];
        s.places.centres[i] = base.places.centres[sp.index()];
        let pid = dip_core::ProvinceId(i as u16);
        for &r in std::iter::once(&map.main_region(pid)).chain(map.coasts(pid)) {
            let name = map.region(r).coast.clone();
            let sr = match &name {
                Some(c) => std.map.find_coast(sp, c),
                None => Some(std.map.main_region(sp)),
            };
            if let Some(sr) = sr {
                s.places.units[r.index()] = base.places.units[sr.index()];
            }
        }
    }
    // Most of the variant's provinces, and, for a variant without points,
    // most of the standard map's too (so that a small map that borrows a
    // few names, like Pure's capitals, keeps its own picture).
    let enough = matched * 10 >= map.num_provinces() * 9
        && (map.provinces().iter().any(|p| p.pos.is_some()) || matched * 10 >= std.map.num_provinces() * 9);
    enough.then_some(s)
}

/// Where each province is drawn: its `at=`; for a map without any, a
/// layout computed from the adjacency (a spring embedding started on a
/// circle), so that every variant can be drawn.
pub fn layout(map: &Map) -> Vec<(f32, f32)> {
    layout_counted(map).0
}

/// How much work a layout did, counted rather than timed so that a test
/// of its growth does not depend on the machine's speed or load: the
/// border edges read for the adjacency, the pairs of points weighed
/// against each other (repulsion in every round, and the last spreading
/// apart of close points), and the pulls along borders in every round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutWork {
    pub borders: u64,
    pub pairs: u64,
    pub pulls: u64,
}

impl LayoutWork {
    pub fn total(&self) -> u64 {
        self.borders + self.pairs + self.pulls
    }
}

/// [`layout`], with the work it did.
pub fn layout_counted(map: &Map) -> (Vec<(f32, f32)>, LayoutWork) {
    let mut work = LayoutWork::default();
    let n = map.num_provinces();
    if n > 0 && map.provinces().iter().all(|p| p.pos.is_some()) {
        let mut pos: Vec<(f32, f32)> = map.provinces().iter().map(|p| p.pos.unwrap_or((0.0, 0.0))).collect();
        fit_coordinates(&mut pos);
        return (pos, work);
    }
    // The standard map's room per province: larger maps get a larger canvas.
    let grow = (n as f32 / 76.0).sqrt().max(1.0);
    let canvas = (1200.0f32 * grow, 1000.0f32 * grow);
    let known = given_positions(map);
    let mut pos = start_on_circle(&known, canvas);
    let adj = neighbours(map, &mut work);
    spring_embed(&mut pos, &known, &adj, canvas, &mut work);
    fit_into_canvas(&mut pos, &known, canvas);
    if n <= EXACT_LAYOUT {
        let fixed: Vec<bool> = known.iter().map(Option::is_some).collect();
        work.pairs += spread(&mut pos, &fixed, UNIT_GAP) * pairs(n);
    }
    (pos, work)
}

/// The provinces' coordinates from the file, fitted first, so that huge
/// ones (`at=3000000,3000000`) cannot make a huge canvas.
fn given_positions(map: &Map) -> Vec<Option<(f32, f32)>> {
    let mut known: Vec<Option<(f32, f32)>> = map.provinces().iter().map(|p| p.pos).collect();
    let mut given: Vec<(f32, f32)> = known.iter().flatten().copied().collect();
    fit_coordinates(&mut given);
    let mut it = given.into_iter();
    for k in known.iter_mut().flatten() {
        *k = it.next().unwrap_or(*k);
    }
    known
}

/// Where the layout starts: the given points, the others on a circle.
fn start_on_circle(known: &[Option<(f32, f32)>], (w, h): (f32, f32)) -> Vec<(f32, f32)> {
    let n = known.len();
    (0..n)
        .map(|i| {
            known[i].unwrap_or_else(|| {
                let a = i as f32 / n.max(1) as f32 * std::f32::consts::TAU;
                (w / 2.0 + a.cos() * w * 0.4, h / 2.0 + a.sin() * h * 0.4)
            })
        })
        .collect()
}

/// The neighbours of each province, from the borders (linear in the
/// borders, not quadratic in the provinces).
fn neighbours(map: &Map, work: &mut LayoutWork) -> Vec<Vec<usize>> {
    let n = map.num_provinces();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for a in map.province_ids() {
        for &r in &map.province(a).regions {
            for ut in map.unit_type_ids() {
                for e in map.edges(ut, r) {
                    work.borders += 1;
                    let b = map.province_of(e.to).index();
                    if b != a.index() {
                        adj[a.index()].push(b);
                        adj[b].push(a.index());
                    }
                }
            }
        }
    }
    for l in &mut adj {
        l.sort_unstable();
        l.dedup();
    }
    adj
}

/// Fruchterman–Reingold on the unknown points: every point repels the
/// others, neighbours pull together, the steps shrink round by round.
fn spring_embed(
    pos: &mut [(f32, f32)],
    known: &[Option<(f32, f32)>],
    adj: &[Vec<usize>],
    (w, h): (f32, f32),
    work: &mut LayoutWork,
) {
    let n = pos.len();
    let k = ((w * h) / n.max(1) as f32).sqrt() * 0.8;
    let mut t = w / 10.0;
    // Large maps: fewer rounds, and repulsion only from points in nearby
    // cells of a grid (the far ones push with a negligible force), so a
    // round costs about linear time.
    let exact = n <= EXACT_LAYOUT;
    let iters = if exact { 300 } else { 60 };
    for _ in 0..iters {
        let mut disp = vec![(0.0f32, 0.0f32); n];
        if exact {
            work.pairs += pairs(n);
            repel_all(pos, k, &mut disp);
        } else {
            repel_near(pos, k, &mut disp, work);
        }
        for i in 0..n {
            work.pulls += adj[i].len() as u64;
            for &j in &adj[i] {
                let dx = pos[i].0 - pos[j].0;
                let dy = pos[i].1 - pos[j].1;
                let d = (dx * dx + dy * dy).sqrt().max(0.1);
                let f = d / k;
                disp[i].0 -= dx * f;
                disp[i].1 -= dy * f;
            }
        }
        for i in 0..n {
            if known[i].is_some() {
                continue;
            }
            // A little gravity keeps loose parts near the middle.
            let (mut dx, mut dy) = disp[i];
            dx -= (pos[i].0 - w / 2.0) * 0.02 * k / 100.0;
            dy -= (pos[i].1 - h / 2.0) * 0.02 * k / 100.0;
            let d = (dx * dx + dy * dy).sqrt().max(0.01);
            let m = d.min(t);
            pos[i].0 += dx / d * m;
            pos[i].1 += dy / d * m;
        }
        t = (t * 0.985).max(1.0);
    }
}

/// The push of points `i` and `j` apart, added to both displacements.
fn repel(pos: &[(f32, f32)], k: f32, disp: &mut [(f32, f32)], i: usize, j: usize) {
    let dx = pos[i].0 - pos[j].0;
    let dy = pos[i].1 - pos[j].1;
    let d2 = (dx * dx + dy * dy).max(0.01);
    let f = k * k / d2;
    disp[i].0 += dx * f;
    disp[i].1 += dy * f;
    disp[j].0 -= dx * f;
    disp[j].1 -= dy * f;
}

/// Every pair of points repels (small maps).
fn repel_all(pos: &[(f32, f32)], k: f32, disp: &mut [(f32, f32)]) {
    for i in 0..pos.len() {
        for j in (i + 1)..pos.len() {
            repel(pos, k, disp, i, j);
        }
    }
}

/// Points repel those in their own and the eight cells around (large
/// maps).
fn repel_near(pos: &[(f32, f32)], k: f32, disp: &mut [(f32, f32)], work: &mut LayoutWork) {
    let grid = Grid::new(pos, 2.0 * k);
    for i in 0..pos.len() {
        grid.near(pos[i], |j| {
            work.pairs += 1;
            if j > i {
                repel(pos, k, disp, i, j);
            }
        });
    }
}

/// A drawing made wholly by the layout is fitted into the canvas, keeping
/// its proportions; one with given points is only kept inside it.
fn fit_into_canvas(pos: &mut [(f32, f32)], known: &[Option<(f32, f32)>], (w, h): (f32, f32)) {
    if known.iter().all(Option::is_none) {
        // Fit the drawing into the canvas, keeping its proportions.
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &(x, y) in pos.iter() {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        let margin = 80.0;
        let sc = ((w - 2.0 * margin) / (x1 - x0).max(1.0)).min((h - 2.0 * margin) / (y1 - y0).max(1.0));
        let (ox, oy) = ((w - (x1 - x0) * sc) / 2.0, (h - (y1 - y0) * sc) / 2.0);
        for p in pos.iter_mut() {
            *p = (ox + (p.0 - x0) * sc, oy + (p.1 - y0) * sc);
        }
    } else {
        for p in pos.iter_mut() {
            *p = (p.0.clamp(20.0, w - 20.0), p.1.clamp(20.0, h - 20.0));
        }
    }
}

/// The pairs among `n` points.
fn pairs(n: usize) -> u64 {
    let n = n as u64;
    n * n.saturating_sub(1) / 2
}

/// The least distance between two laid-out provinces' points: a unit's
/// icon is 28 units wide and 22 high, and one that covered part of its
/// neighbour's would take that neighbour's clicks.
pub const UNIT_GAP: f32 = 32.0;

/// Pushes apart points closer than `gap` (a fixed point stays, its
/// neighbour moves the whole way), a few rounds at most; the rounds run.
fn spread(pos: &mut [(f32, f32)], fixed: &[bool], gap: f32) -> u64 {
    let mut rounds = 0;
    for _ in 0..50 {
        rounds += 1;
        let mut moved = false;
        for i in 0..pos.len() {
            for j in (i + 1)..pos.len() {
                let (dx, dy) = (pos[j].0 - pos[i].0, pos[j].1 - pos[i].1);
                let d = (dx * dx + dy * dy).sqrt();
                if d >= gap || (fixed[i] && fixed[j]) {
                    continue;
                }
                // Apart along the line between them (any way when they coincide).
                let (ux, uy) = if d > 0.01 { (dx / d, dy / d) } else { (1.0, 0.0) };
                let push = gap - d + 0.5;
                let (si, sj) = match (fixed[i], fixed[j]) {
                    (true, _) => (0.0, push),
                    (_, true) => (push, 0.0),
                    _ => (push / 2.0, push / 2.0),
                };
                pos[i] = (pos[i].0 - ux * si, pos[i].1 - uy * si);
                pos[j] = (pos[j].0 + ux * sj, pos[j].1 + uy * sj);
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    rounds
}

/// The largest Realpolitik `.rgn` picture read (its scanlines inside
/// RGN_MAX × RGN_MAX): a label a pixel, 128 MB at most.
const RGN_MAX: i64 = 8_000;

/// Maps up to this many provinces are laid out with the exact (quadratic)
/// force computation; larger ones with a grid.
const EXACT_LAYOUT: usize = 1500;

/// The largest coordinate kept as it is; maps drawn larger are scaled down
/// to fit (a canvas is at most about this wide and high: 4096 × 4096 is
/// 64 MiB of pixels, where a coordinate of 2147483647 once asked for 1.6 GB).
const MAX_COORDINATE: f32 = 4096.0;

/// Makes coordinates usable for a canvas: non-finite ones become 0, and
/// when any is beyond [`MAX_COORDINATE`] all are scaled down together.
fn fit_coordinates(pos: &mut [(f32, f32)]) {
    for p in pos.iter_mut() {
        if !p.0.is_finite() {
            p.0 = 0.0;
        }
        if !p.1.is_finite() {
            p.1 = 0.0;
        }
        p.0 = p.0.max(0.0);
        p.1 = p.1.max(0.0);
    }
    let m = pos.iter().map(|p| p.0.max(p.1)).fold(0.0f32, f32::max);
    if m > MAX_COORDINATE {
        let sc = MAX_COORDINATE / m;
        for p in pos.iter_mut() {
            *p = (p.0 * sc, p.1 * sc);
        }
    }
}

/// Points sorted into square cells, for neighbour queries.
struct Grid {
    cell: f32,
    cols: i64,
    rows: i64,
    x0: f32,
    y0: f32,
    start: Vec<usize>,
    items: Vec<usize>,
}

impl Grid {
    fn new(pos: &[(f32, f32)], cell: f32) -> Grid {
        let cell = if cell.is_finite() && cell > 0.0 { cell } else { 1.0 };
        let x0 = pos.iter().map(|p| p.0).fold(f32::MAX, f32::min).min(0.0);
        let y0 = pos.iter().map(|p| p.1).fold(f32::MAX, f32::min).min(0.0);
        let x1 = pos.iter().map(|p| p.0).fold(0.0f32, f32::max);
        let y1 = pos.iter().map(|p| p.1).fold(0.0f32, f32::max);
        // At most about 4 cells a point: a cell grows when the points are spread wide.
        let mut cell = cell;
        let limit = (4 * pos.len()).max(16) as f32;
        while ((x1 - x0) / cell + 1.0) * ((y1 - y0) / cell + 1.0) > limit {
            cell *= 1.5;
        }
        let cols = ((x1 - x0) / cell) as i64 + 1;
        let rows = ((y1 - y0) / cell) as i64 + 1;
        let key = |p: &(f32, f32)| {
            let cx = (((p.0 - x0) / cell) as i64).clamp(0, cols - 1);
            let cy = (((p.1 - y0) / cell) as i64).clamp(0, rows - 1);
            (cy * cols + cx) as usize
        };
        let mut count = vec![0usize; (cols * rows) as usize + 1];
        for p in pos {
            count[key(p) + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let start = count.clone();
        let mut fill = count;
        let mut items = vec![0usize; pos.len()];
        for (i, p) in pos.iter().enumerate() {
            let k = key(p);
            items[fill[k]] = i;
            fill[k] += 1;
        }
        Grid {
            cell,
            cols,
            rows,
            x0,
            y0,
            start,
            items,
        }
    }

    /// Calls `f` with every point in the cell of `p` and the eight around it.
    fn near(&self, p: (f32, f32), mut f: impl FnMut(usize)) {
        let cx = (((p.0 - self.x0) / self.cell) as i64).clamp(0, self.cols - 1);
        let cy = (((p.1 - self.y0) / self.cell) as i64).clamp(0, self.rows - 1);
        for y in (cy - 1).max(0)..=(cy + 1).min(self.rows - 1) {
            for x in (cx - 1).max(0)..=(cx + 1).min(self.cols - 1) {
                let c = (y * self.cols + x) as usize;
                for &j in &self.items[self.start[c]..self.start[c + 1]] {
                    f(j);
                }
            }
        }
    }
}

/// The canvas that holds all points with a margin: at least the
/// conventional 1200 × 1000 when the points lie inside it.
fn canvas_of(points: &[(f32, f32)], radius: f32) -> (u32, u32) {
    let mx = points.iter().map(|p| p.0).fold(0.0f32, f32::max);
    let my = points.iter().map(|p| p.1).fold(0.0f32, f32::max);
    let w = ((mx + radius.min(80.0)).max(200.0) / 4.0).ceil() as u32 * 4;
    let h = ((my + radius.min(80.0)).max(200.0) / 4.0).ceil() as u32 * 4;
    (w, h)
}

/// The median distance from a point to its nearest neighbour.
fn typical_spacing(points: &[(f32, f32)]) -> f32 {
    let nearest = |i: usize, a: &(f32, f32), grid: Option<&Grid>| {
        let mut best = f32::MAX;
        let mut see = |j: usize| {
            if j != i {
                let b = points[j];
                best = best.min(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt());
            }
        };
        match grid {
            Some(g) => g.near(*a, &mut see),
            None => (0..points.len()).for_each(see),
        }
        best
    };
    // Large maps: the nearest neighbour among the points of nearby cells
    // (a point alone in its neighbourhood is left out of the median).
    let grid = (points.len() > EXACT_LAYOUT).then(|| {
        let (x1, y1) = points
            .iter()
            .fold((1.0f32, 1.0f32), |m, p| (m.0.max(p.0), m.1.max(p.1)));
        Grid::new(points, (x1 * y1 / points.len() as f32).sqrt() * 2.0)
    });
    let mut d: Vec<f32> = points
        .iter()
        .enumerate()
        .map(|(i, a)| nearest(i, a, grid.as_ref()))
        .filter(|d| d.is_finite() && *d < f32::MAX)
        .collect();
    if d.is_empty() {
        return 100.0;
    }
    d.sort_by(f32::total_cmp);
    d[d.len() / 2].max(20.0) * 1.6
}

/// `M x,y L x,y ... Z` for the rings.
pub fn path_data(rings: &[Ring]) -> String {
    let mut s = String::new();
    for r in rings {
        for (i, (x, y)) in r.iter().enumerate() {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push(if i == 0 { 'M' } else { 'L' });
            s.push_str(&format!("{x},{y}"));
        }
        s.push_str(" Z");
    }
    s
}

/// Reads the path subset the shapes files use: `M`, `L`, `Z` with absolute
/// whole-number coordinates (`L` may be left out after the first point).
/// `X,Y` in whole numbers.
fn parse_point(w: &str) -> Option<(f32, f32)> {
    let (x, y) = w.split_once(',')?;
    let (x, y): (i32, i32) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    Some((x as f32, y as f32))
}

fn parse_path(d: &str) -> Result<Vec<Ring>, String> {
    let mut rings = Vec::new();
    let mut cur: Ring = Vec::new();
    let mut toks = d.split_whitespace().peekable();
    if toks.peek().is_none() {
        return Err("expected a path: `M x,y L x,y ... Z`".into());
    }
    while let Some(t) = toks.next() {
        let (cmd, rest) = match t.chars().next() {
            Some(c @ ('M' | 'L' | 'Z')) => (Some(c), &t[1..]),
            _ => (None, t),
        };
        if cmd == Some('Z') {
            if cur.len() >= 3 {
                rings.push(std::mem::take(&mut cur));
            } else {
                return Err("a ring needs at least 3 points before `Z`".into());
            }
            continue;
        }
        if cmd == Some('M') && !cur.is_empty() {
            return Err("`M` inside a ring: close the ring with `Z` first".into());
        }
        let rest = if rest.is_empty() {
            toks.next().unwrap_or("")
        } else {
            rest
        };
        let (x, y) = rest
            .split_once(',')
            .ok_or_else(|| format!("expected `x,y`, found `{rest}`"))?;
        let x: i32 = x.parse().map_err(|_| format!("expected a whole number, found `{x}`"))?;
        let y: i32 = y.parse().map_err(|_| format!("expected a whole number, found `{y}`"))?;
        cur.push((x, y));
    }
    if !cur.is_empty() {
        return Err("the path ends without `Z`".into());
    }
    Ok(rings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgn_scanlines_become_outlines() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../dip-variants/tests/fixtures/realpolitik/Tiny"
        );
        let v = dip_variants::formats::load_any(&format!("{dir}/Tiny.var")).unwrap();
        let text = std::fs::read_to_string(format!("{dir}/Tiny.rgn")).unwrap();
        let s = Shapes::from_rgn(&v.map, &text, "Tiny.rgn").unwrap();
        let north = v.map.find_province("Northport").unwrap();
        // Two runs of 20 pixels on rows 50 and 51: one 20 × 2 rectangle.
        assert_eq!(
            s.provinces[north.index()],
            vec![vec![(90, 50), (110, 50), (110, 52), (90, 52)]]
        );
        let strait = v.map.find_province("Strait").unwrap();
        assert_eq!(s.provinces[strait.index()].len(), 1);
        let inland = v.map.find_province("Inland").unwrap();
        assert!(s.provinces[inland.index()].is_empty());
        let bad = text.replacen("90 50 20", "90 50 x", 1);
        let e = Shapes::from_rgn(&v.map, &bad, "Tiny.rgn").unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.message.contains("scanline"));
    }

    #[test]
    fn path_round_trip() {
        let rings = vec![
            vec![(0, 0), (10, 0), (10, 10)],
            vec![(20, 20), (30, 20), (30, 30), (20, 30)],
        ];
        assert_eq!(parse_path(&path_data(&rings)).unwrap(), rings);
    }

    #[test]
    fn path_errors_say_what_was_expected() {
        assert!(parse_path("M 1,2 L 3,4 Z").unwrap_err().contains("3 points"));
        assert!(parse_path("M 1,2 L 3 Z").unwrap_err().contains("x,y"));
        assert!(parse_path("M 1,2 L 3,4 L 5,x Z").unwrap_err().contains("whole number"));
        assert!(parse_path("M 1,2 L 3,4 L 5,6").unwrap_err().contains("without `Z`"));
    }

    #[test]
    fn shapes_file_errors_name_the_line() {
        let v = dip_variants::standard();
        let e = Shapes::parse(&v.map, "canvas 10 10\nprovince xxx M0,0 L1,0 L1,1 Z\n", "t.shapes").unwrap_err();
        assert_eq!((e.line, e.file.as_str()), (2, "t.shapes"));
        assert!(e.message.contains("xxx"));
        let e = Shapes::parse(&v.map, "canvas ten 10\n", "t.shapes").unwrap_err();
        assert_eq!(e.line, 1);
        let e = Shapes::parse(&v.map, "circle 1\n", "t.shapes").unwrap_err();
        assert!(e.message.contains("expected canvas"));
    }

    #[test]
    fn unit_name_and_centre_lines_place_things_and_name_their_errors() {
        let v = dip_variants::standard();
        let m = &v.map;
        let text = "canvas 100 100\nunit par 10,20\nunit spa/nc 30,40\nname par 11,22\ncentre par 12,24\n";
        let s = Shapes::parse(m, text, "t.shapes").unwrap();
        let par = m.find_province("par").unwrap();
        let spa = m.find_province("spa").unwrap();
        let nc = m.find_coast(spa, "nc").unwrap();
        assert_eq!(s.places.unit(m, par), Some((10.0, 20.0)));
        assert_eq!(s.places.units[nc.index()], Some((30.0, 40.0)));
        assert_eq!(s.places.names[par.index()], Some((11.0, 22.0)));
        assert_eq!(s.places.centres[par.index()], Some((12.0, 24.0)));
        // Written back the same.
        let again = Shapes::parse(m, &s.to_text(m, "x"), "t.shapes").unwrap();
        assert_eq!(again.places, s.places);
        for (bad, says) in [
            ("unit par 1.5,2", "whole numbers"),
            ("unit xyz 1,2", "unknown province `xyz`"),
            ("unit spa/ec 1,2", "`spa` has no coast `ec`"),
            ("name spa/nc 1,2", "not a coast"),
            ("centre par", "expected `centre PROVINCE X,Y`"),
        ] {
            let e = Shapes::parse(m, &format!("canvas 10 10\n{bad}\n"), "t.shapes").unwrap_err();
            assert_eq!(e.line, 2, "{bad}");
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn the_standard_shapes_give_every_province_a_shape() {
        let v = dip_variants::standard();
        let s = Shapes::for_variant(&v);
        assert_eq!((s.width, s.height), (1200, 1186));
        for (i, p) in v.map.provinces().iter().enumerate() {
            assert!(!s.provinces[i].is_empty(), "{} has no shape", p.abbr);
        }
        assert!(!s.generated);
    }

    #[test]
    fn a_variant_without_coordinates_gets_a_layout_inside_the_canvas() {
        let v = dip_variants::load("pure").unwrap();
        let pts = layout(&v.map);
        assert_eq!(pts.len(), v.map.num_provinces());
        for &(x, y) in &pts {
            assert!((0.0..=1200.0).contains(&x) && (0.0..=1000.0).contains(&y));
        }
        let s = Shapes::generate(&v.map);
        assert!(s.provinces.iter().all(|r| !r.is_empty()));
    }
}
