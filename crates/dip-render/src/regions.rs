//! Regions grown around points on a raster, and their outlines as polygons.
//!
//! Used to draw a map for a variant that has only coordinates, and to trace
//! a Realpolitik `.rgn`'s scanlines into outlines. Neighbouring regions
//! share their simplified borders exactly (each border is simplified once),
//! so no slivers open between them.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// No label: the pixel belongs to no region.
pub const NONE: u16 = u16::MAX;

/// A seed: a point, the class of pixels it may claim, its label, and its
/// weight (a region grows `weight` times as fast as one of weight 1).
#[derive(Clone, Copy, Debug)]
pub struct Seed {
    pub x: f32,
    pub y: f32,
    pub class: u8,
    pub label: u16,
    pub weight: f32,
}

impl Seed {
    pub fn new(x: f32, y: f32, class: u8, label: u16) -> Self {
        Seed {
            x,
            y,
            class,
            label,
            weight: 1.0,
        }
    }
}

/// Which labels may border each other.
pub type Allowed<'a> = &'a dyn Fn(u16, u16) -> bool;

/// Grows every seed over the pixels of its class, nearest seed first
/// (distance measured from the seed's point, paths staying inside the
/// class): a Voronoi diagram that respects coastlines. `class[i]` is the
/// class of pixel `i` (row-major, `w × h`); pixels farther than `max_dist`
/// from their seed stay [`NONE`]. A seed outside its class is moved to the
/// nearest pixel of its class first.
pub fn grow(w: usize, h: usize, class: &[u8], seeds: &[Seed], max_dist: f32) -> Vec<u16> {
    let mut label = vec![NONE; w * h];
    grow_into(&mut label, w, h, class, seeds, max_dist, None);
    label
}

/// [`grow`] into a grid that may already hold labels (they are kept). With
/// `allowed`, a region does not take a pixel that touches (8-neighbourhood)
/// a region it may not border; such pixels stay [`NONE`] (see [`fill_gaps`]).
pub fn grow_into(
    label: &mut [u16],
    w: usize,
    h: usize,
    class: &[u8],
    seeds: &[Seed],
    max_dist: f32,
    allowed: Option<Allowed>,
) {
    if w == 0 || h == 0 || class.len() != w * h || label.len() != w * h {
        return;
    }
    // (weighted distance² in 1/16 px², pixel, seed index)
    let mut heap: BinaryHeap<Reverse<(u64, u32, u32)>> = BinaryHeap::new();
    let mut pts: Vec<(f32, f32)> = Vec::with_capacity(seeds.len());
    for (si, s) in seeds.iter().enumerate() {
        let (px, py) = snap(w, h, class, s);
        pts.push((px as f32 + 0.5, py as f32 + 0.5));
        heap.push(Reverse((0, (py * w + px) as u32, si as u32)));
    }
    let ok = |label: &[u16], pix: usize, l: u16| -> bool {
        let Some(allowed) = allowed else { return true };
        let (x, y) = ((pix % w) as isize, (pix / w) as isize);
        for dy in -1..=1isize {
            for dx in -1..=1isize {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx as usize >= w || ny as usize >= h {
                    continue;
                }
                let m = label[ny as usize * w + nx as usize];
                if m != NONE && m != l && !allowed(l, m) {
                    return false;
                }
            }
        }
        true
    };
    while let Some(Reverse((_, pix, si))) = heap.pop() {
        let pix = pix as usize;
        if label[pix] != NONE {
            continue;
        }
        let seed = &seeds[si as usize];
        if !ok(label, pix, seed.label) {
            continue;
        }
        label[pix] = seed.label;
        let (x, y) = (pix % w, pix / w);
        let (sx, sy) = pts[si as usize];
        let wt = seed.weight.max(0.01);
        let nbrs = [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)];
        for (nx, ny) in nbrs {
            if nx >= w || ny >= h {
                continue;
            }
            let ni = ny * w + nx;
            if label[ni] != NONE || class[ni] != seed.class {
                continue;
            }
            let dx = nx as f32 + 0.5 - sx;
            let dy = ny as f32 + 0.5 - sy;
            let d2 = dx * dx + dy * dy;
            if d2 > max_dist * max_dist * wt * wt {
                continue;
            }
            heap.push(Reverse(((d2 / (wt * wt) * 16.0) as u64, ni as u32, si)));
        }
    }
}

/// Gives every unlabelled pixel the label of the nearest labelled pixel of
/// its class (steps inside the class), up to `max_steps`; `class_of[l]` is
/// the class of label `l`.
pub fn fill_gaps(label: &mut [u16], w: usize, h: usize, class: &[u8], class_of: &[u8], max_steps: u32) {
    let mut q = std::collections::VecDeque::new();
    let mut dist = vec![0u32; w * h];
    for (i, &l) in label.iter().enumerate() {
        if l != NONE {
            q.push_back(i);
        }
    }
    while let Some(i) = q.pop_front() {
        let l = label[i];
        if dist[i] >= max_steps {
            continue;
        }
        let (x, y) = (i % w, i / w);
        for (nx, ny) in [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)] {
            if nx >= w || ny >= h {
                continue;
            }
            let j = ny * w + nx;
            if label[j] == NONE && class_of.get(l as usize) == Some(&class[j]) {
                label[j] = l;
                dist[j] = dist[i] + 1;
                q.push_back(j);
            }
        }
    }
}

/// The pixel nearest to the seed that has the seed's class (the seed's own
/// pixel when it has).
fn snap(w: usize, h: usize, class: &[u8], s: &Seed) -> (usize, usize) {
    let cx = (s.x.max(0.0) as usize).min(w - 1);
    let cy = (s.y.max(0.0) as usize).min(h - 1);
    if class[cy * w + cx] == s.class {
        return (cx, cy);
    }
    let maxr = w.max(h);
    for r in 1..maxr {
        let mut best: Option<(usize, usize, usize)> = None;
        let x0 = cx.saturating_sub(r);
        let x1 = (cx + r).min(w - 1);
        let y0 = cy.saturating_sub(r);
        let y1 = (cy + r).min(h - 1);
        for y in y0..=y1 {
            for x in x0..=x1 {
                if x != x0 && x != x1 && y != y0 && y != y1 {
                    continue;
                }
                if class[y * w + x] == s.class {
                    let d = x.abs_diff(cx).pow(2) + y.abs_diff(cy).pow(2);
                    if best.is_none_or(|b| d < b.0) {
                        best = Some((d, x, y));
                    }
                }
            }
        }
        if let Some((_, x, y)) = best {
            return (x, y);
        }
    }
    (cx, cy)
}

/// A closed ring of points.
pub type Ring = Vec<(i32, i32)>;

/// Is the point inside the rings (even-odd: holes are outside)?
pub fn inside(rings: &[Ring], (px, py): (f32, f32)) -> bool {
    let mut inside = false;
    for r in rings {
        for k in 0..r.len() {
            let (x0, y0) = (r[k].0 as f32, r[k].1 as f32);
            let (x1, y1) = (r[(k + 1) % r.len()].0 as f32, r[(k + 1) % r.len()].1 as f32);
            if (y0 > py) != (y1 > py) && px < x0 + (py - y0) / (y1 - y0) * (x1 - x0) {
                inside = !inside;
            }
        }
    }
    inside
}

/// The outlines of every labelled region, simplified with tolerance `eps`
/// (in pixels), then scaled by `cell` (canvas units per pixel). Returns, for
/// each label `0..num_labels`, its rings (outer rings clockwise on screen,
/// holes the other way: fill them with the even-odd rule).
pub fn outlines(w: usize, h: usize, label: &[u16], num_labels: usize, eps: f32, cell: i32) -> Vec<Vec<Ring>> {
    let vw = w + 1;
    let at = |x: isize, y: isize| -> u16 {
        if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
            NONE
        } else {
            label[y as usize * w + x as usize]
        }
    };
    // A node: a grid corner where three or more labels meet.
    let is_node = |v: usize| -> bool {
        let (x, y) = ((v % vw) as isize, (v / vw) as isize);
        let a = [at(x - 1, y - 1), at(x, y - 1), at(x - 1, y), at(x, y)];
        let mut d = [NONE; 4];
        let mut n = 0;
        for l in a {
            if !d[..n].contains(&l) {
                d[n] = l;
                n += 1;
            }
        }
        n >= 3
    };
    // Directed boundary edges per label, the region on the right (y down).
    let mut edges: Vec<Vec<(u32, u32)>> = vec![Vec::new(); num_labels];
    for y in 0..h {
        for x in 0..w {
            let l = label[y * w + x];
            if l == NONE || l as usize >= num_labels {
                continue;
            }
            let (xi, yi) = (x as isize, y as isize);
            let v = |x: usize, y: usize| (y * vw + x) as u32;
            let e = &mut edges[l as usize];
            if at(xi, yi - 1) != l {
                e.push((v(x, y), v(x + 1, y)));
            }
            if at(xi + 1, yi) != l {
                e.push((v(x + 1, y), v(x + 1, y + 1)));
            }
            if at(xi, yi + 1) != l {
                e.push((v(x + 1, y + 1), v(x, y + 1)));
            }
            if at(xi - 1, yi) != l {
                e.push((v(x, y + 1), v(x, y)));
            }
        }
    }
    let mut cache: HashMap<Vec<u32>, Vec<u32>> = HashMap::new();
    let mut out = Vec::with_capacity(num_labels);
    for e in edges {
        let mut next: HashMap<u32, Vec<(u32, bool)>> = HashMap::with_capacity(e.len());
        for &(a, b) in &e {
            next.entry(a).or_default().push((b, false));
        }
        let mut rings = Vec::new();
        let starts: Vec<u32> = e.iter().map(|&(a, _)| a).collect();
        for s in starts {
            // Walk one loop, taking unused edges.
            let mut lp: Vec<u32> = Vec::new();
            let mut cur = s;
            let mut prev: Option<u32> = None;
            while let Some(outs) = next.get_mut(&cur) {
                let pick = if outs.iter().filter(|o| !o.1).count() > 1 {
                    // Two ways out (regions touching at a corner): turn right.
                    let p = prev.unwrap_or(cur);
                    let din = dir(vw, p, cur);
                    outs.iter().position(|o| !o.1 && dir(vw, cur, o.0) == turn_right(din))
                } else {
                    outs.iter().position(|o| !o.1)
                };
                let Some(i) = pick.or_else(|| outs.iter().position(|o| !o.1)) else {
                    break;
                };
                outs[i].1 = true;
                lp.push(cur);
                prev = Some(cur);
                cur = outs[i].0;
                if cur == s {
                    break;
                }
            }
            if lp.len() < 3 {
                continue;
            }
            let ring = simplify_loop(&lp, vw, eps, &is_node, &mut cache);
            if ring.len() >= 3 {
                rings.push(
                    ring.iter()
                        .map(|&v| ((v as usize % vw) as i32 * cell, (v as usize / vw) as i32 * cell))
                        .collect(),
                );
            }
        }
        out.push(rings);
    }
    out
}

fn dir(vw: usize, a: u32, b: u32) -> u8 {
    let (a, b) = (a as i64, b as i64);
    match b - a {
        1 => 0,                   // east
        d if d == vw as i64 => 1, // south
        -1 => 2,                  // west
        _ => 3,                   // north
    }
}

fn turn_right(d: u8) -> u8 {
    (d + 1) % 4
}

/// Splits a loop at its nodes, simplifies each piece once (shared with the
/// neighbour, who walks it the other way) and joins the pieces again.
fn simplify_loop(
    lp: &[u32],
    vw: usize,
    eps: f32,
    is_node: &dyn Fn(usize) -> bool,
    cache: &mut HashMap<Vec<u32>, Vec<u32>>,
) -> Vec<u32> {
    let n = lp.len();
    let nodes: Vec<usize> = (0..n).filter(|&i| is_node(lp[i] as usize)).collect();
    let mut out = Vec::new();
    if nodes.is_empty() {
        // An island inside one neighbour: rotate to its smallest vertex.
        let m = (0..n).min_by_key(|&i| lp[i]).unwrap_or(0);
        let mut chain: Vec<u32> = (0..=n).map(|k| lp[(m + k) % n]).collect();
        let forward = chain[1] < chain[n - 1];
        if !forward {
            chain.reverse();
        }
        let s = cached(chain, vw, eps, cache);
        let mut s = s;
        if !forward {
            s.reverse();
        }
        s.pop();
        return s;
    }
    for k in 0..nodes.len() {
        let a = nodes[k];
        let b = if k + 1 < nodes.len() {
            nodes[k + 1]
        } else {
            nodes[0] + n
        };
        let mut chain: Vec<u32> = (a..=b).map(|i| lp[i % n]).collect();
        let last = chain.len() - 1;
        let forward = (chain[0], chain[1]) < (chain[last], chain[last - 1]);
        if !forward {
            chain.reverse();
        }
        let mut s = cached(chain, vw, eps, cache);
        if !forward {
            s.reverse();
        }
        s.pop();
        out.extend(s);
    }
    out
}

fn cached(chain: Vec<u32>, vw: usize, eps: f32, cache: &mut HashMap<Vec<u32>, Vec<u32>>) -> Vec<u32> {
    if let Some(s) = cache.get(&chain) {
        return s.clone();
    }
    let pts: Vec<(f32, f32)> = chain
        .iter()
        .map(|&v| ((v as usize % vw) as f32, (v as usize / vw) as f32))
        .collect();
    let mut keep = vec![false; pts.len()];
    keep[0] = true;
    keep[pts.len() - 1] = true;
    if pts.first() == pts.last() && pts.len() > 3 {
        // A closed chain: split at the point farthest from the start.
        let far = (1..pts.len() - 1)
            .max_by(|&i, &j| {
                let di = (pts[i].0 - pts[0].0).powi(2) + (pts[i].1 - pts[0].1).powi(2);
                let dj = (pts[j].0 - pts[0].0).powi(2) + (pts[j].1 - pts[0].1).powi(2);
                di.total_cmp(&dj)
            })
            .unwrap_or(1);
        keep[far] = true;
        dp(&pts, 0, far, eps, &mut keep);
        dp(&pts, far, pts.len() - 1, eps, &mut keep);
    } else {
        dp(&pts, 0, pts.len() - 1, eps, &mut keep);
    }
    let s: Vec<u32> = chain.iter().zip(&keep).filter(|(_, k)| **k).map(|(v, _)| *v).collect();
    cache.insert(chain, s.clone());
    s
}

/// Douglas–Peucker between `a` and `b` (both kept).
fn dp(p: &[(f32, f32)], a: usize, b: usize, eps: f32, keep: &mut [bool]) {
    if b <= a + 1 {
        return;
    }
    let (ax, ay) = p[a];
    let (bx, by) = p[b];
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt();
    let mut best = (0.0f32, a);
    for (i, &(x, y)) in p.iter().enumerate().take(b).skip(a + 1) {
        let d = if len < 1e-6 {
            ((x - ax).powi(2) + (y - ay).powi(2)).sqrt()
        } else {
            ((x - ax) * dy - (y - ay) * dx).abs() / len
        };
        if d > best.0 {
            best = (d, i);
        }
    }
    if best.0 > eps {
        keep[best.1] = true;
        dp(p, a, best.1, eps, keep);
        dp(p, best.1, b, eps, keep);
    }
}

/// Labels that touch each other (4-neighbourhood), as sorted pairs.
pub fn touching(w: usize, h: usize, label: &[u16]) -> Vec<(u16, u16)> {
    let mut set = std::collections::BTreeSet::new();
    for y in 0..h {
        for x in 0..w {
            let l = label[y * w + x];
            if l == NONE {
                continue;
            }
            for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                if nx < w && ny < h {
                    let m = label[ny * w + nx];
                    if m != NONE && m != l {
                        set.insert((l.min(m), l.max(m)));
                    }
                }
            }
        }
    }
    set.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seeds_split_a_strip_in_the_middle() {
        let (w, h) = (10, 2);
        let class = vec![0u8; w * h];
        let seeds = [Seed::new(0.5, 0.5, 0, 0), Seed::new(9.5, 0.5, 0, 1)];
        let l = grow(w, h, &class, &seeds, 100.0);
        assert_eq!(&l[..10], &[0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn growth_stops_at_another_class() {
        let (w, h) = (5, 1);
        let class = vec![0, 0, 1, 0, 0];
        let seeds = [Seed::new(0.5, 0.5, 0, 7)];
        let l = grow(w, h, &class, &seeds, 100.0);
        assert_eq!(l, vec![7, 7, NONE, NONE, NONE]);
    }

    #[test]
    fn a_seed_in_the_wrong_class_is_moved_to_its_class() {
        let (w, h) = (5, 1);
        let class = vec![1, 1, 1, 0, 0];
        let seeds = [Seed::new(0.5, 0.5, 0, 3)];
        let l = grow(w, h, &class, &seeds, 100.0);
        assert_eq!(l, vec![NONE, NONE, NONE, 3, 3]);
    }

    #[test]
    fn a_square_has_one_ring_of_four_corners() {
        let (w, h) = (4, 4);
        let mut label = vec![NONE; 16];
        for y in 1..3 {
            for x in 1..3 {
                label[y * 4 + x] = 0;
            }
        }
        let r = outlines(w, h, &label, 1, 0.5, 10);
        assert_eq!(r[0], vec![vec![(10, 10), (30, 10), (30, 30), (10, 30)]]);
    }

    #[test]
    fn neighbours_share_their_simplified_border() {
        // A wavy border between two labels: both sides must get the same points.
        let (w, h) = (40, 20);
        let mut label = vec![0u16; w * h];
        for y in 0..h {
            let cut = 18 + ((y as f32 * 0.7).sin() * 3.0) as usize;
            for x in cut..w {
                label[y * w + x] = 1;
            }
        }
        let r = outlines(w, h, &label, 2, 1.5, 1);
        let pts = |rings: &Vec<Ring>| -> std::collections::BTreeSet<(i32, i32)> {
            rings
                .iter()
                .flatten()
                .copied()
                .filter(|&(x, _)| x > 0 && x < w as i32)
                .collect()
        };
        assert_eq!(pts(&r[0]), pts(&r[1]));
        assert!(r[0][0].len() < 30, "simplified: {}", r[0][0].len());
    }

    #[test]
    fn touching_finds_neighbours() {
        let label = vec![0, 0, 1, NONE, 2];
        assert_eq!(touching(5, 1, &label), vec![(0, 1)]);
    }
}
