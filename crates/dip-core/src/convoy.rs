//! Convoy geography: which routes could exist with the fleets on the board.

use crate::ids::{BitSet, ProvinceId};
use crate::map::Map;
use crate::state::State;

/// Convoy spaces with a unit able to convoy, reachable from `from` by convoy
/// steps through such spaces. `from` itself is not included.
pub fn fleets_reachable(map: &Map, state: &State, from: ProvinceId, seen: &mut BitSet, stack: &mut Vec<ProvinceId>) {
    seen.clear();
    stack.clear();
    stack.push(from);
    while let Some(p) = stack.pop() {
        for q in map.convoy_neighbours(p).iter() {
            let qid = ProvinceId(q as u16);
            if seen.contains(q) || !can_convoy_in(map, state, qid) {
                continue;
            }
            seen.insert(q);
            stack.push(qid);
        }
    }
}

/// A unit that can convoy stands in this convoy space.
pub fn can_convoy_in(map: &Map, state: &State, p: ProvinceId) -> bool {
    map.is_convoy_space(p) && state.unit(p).is_some_and(|u| map.unit_type(u.kind).can_convoy)
}

/// Could an army go from `from` to `to` by convoy with the units on the board?
pub fn route_possible(map: &Map, state: &State, from: ProvinceId, to: ProvinceId) -> bool {
    search(map, state, from, to, None)
}

/// Depth-first search through convoy spaces holding a unit able to convoy.
/// Maps of up to 512 provinces keep the visited set on the stack.
fn search(map: &Map, state: &State, from: ProvinceId, to: ProvinceId, skip: Option<ProvinceId>) -> bool {
    let n = map.num_provinces();
    let mut small = [0u64; 8];
    let mut big = Vec::new();
    let seen: &mut [u64] = if n <= 512 {
        &mut small
    } else {
        big.resize(n.div_ceil(64), 0);
        &mut big
    };
    let mut stack: Vec<ProvinceId> = Vec::new();
    let mut p = from;
    loop {
        for q in map.convoy_neighbours(p).iter() {
            let qid = ProvinceId(q as u16);
            if qid == to && p != from {
                return true;
            }
            if seen[q / 64] & (1 << (q % 64)) != 0 || Some(qid) == skip || !can_convoy_in(map, state, qid) {
                continue;
            }
            seen[q / 64] |= 1 << (q % 64);
            stack.push(qid);
        }
        match stack.pop() {
            Some(next) => p = next,
            None => return false,
        }
    }
}

/// Is the convoying unit in `fleet` on some minimal route from `from` to
/// `to`, with the units able to convoy now on the board?
pub fn on_route(map: &Map, state: &State, from: ProvinceId, to: ProvinceId, fleet: ProvinceId) -> bool {
    // Only convoy spaces can hold a convoying unit: the rest of the board
    // need not be looked at.
    let spaces = map.convoy_spaces();
    let mut fleets: Vec<ProvinceId> = Vec::with_capacity(spaces.len());
    fleets.extend(
        spaces
            .iter()
            .map(|q| ProvinceId(q as u16))
            .filter(|&p| can_convoy_in(map, state, p)),
    );
    match fleets.iter().position(|&f| f == fleet) {
        Some(k) => on_minimal_route(map, &fleets, from, to, k),
        None => false,
    }
}

/// Could an army go from `from` to `to` by convoy without the unit in `skip`
/// (a fleet cannot both convoy and support, DATC 6.D.31)?
pub fn route_possible_without(map: &Map, state: &State, from: ProvinceId, to: ProvinceId, skip: ProvinceId) -> bool {
    search(map, state, from, to, Some(skip))
}

/// Is `fleets[target]` on some *minimal* convoy route from `from` to `to`
/// through `fleets`: a chain with no shortcut, so that every fleet on it is
/// needed (DATC 4.E.1 and 6.G.19: a convoy that no route needs is illegal)?
/// Minimal chains are the induced paths between the two ends. Whether a
/// vertex lies on an induced path is NP-complete in general, so the search
/// has a step budget (20,000 chain steps); past it the answer
/// falls back to "on some simple route", decided exactly by
/// [`on_simple_route`]: a fleet on no route at all is never accepted.
pub fn on_minimal_route(map: &Map, fleets: &[ProvinceId], from: ProvinceId, to: ProvinceId, target: usize) -> bool {
    let n = fleets.len().min(64);
    if target >= n {
        return false;
    }
    let adj = |a: ProvinceId, b: ProvinceId| map.convoy_adjacent(a, b);
    let mut budget = 20_000u32;
    let mut path: Vec<usize> = Vec::new();
    // Depth-first over chains starting next to `from`.
    fn extend(
        fleets: &[ProvinceId],
        from: ProvinceId,
        to: ProvinceId,
        target: usize,
        path: &mut Vec<usize>,
        budget: &mut u32,
        adj: &dyn Fn(ProvinceId, ProvinceId) -> bool,
    ) -> Option<bool> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let last = *path.last().expect("path is not empty");
        if adj(fleets[last], to) {
            // The chain ends here (no later fleet may touch `to`).
            return Some(path.contains(&target));
        }
        for v in 0..fleets.len().min(64) {
            if path.contains(&v) || !adj(fleets[last], fleets[v]) {
                continue;
            }
            // No shortcut: v touches neither `from` nor any earlier fleet.
            let chord = adj(from, fleets[v]) || path[..path.len() - 1].iter().any(|&u| adj(fleets[u], fleets[v]));
            if chord {
                continue;
            }
            path.push(v);
            let r = extend(fleets, from, to, target, path, budget, adj);
            path.pop();
            match r {
                Some(true) => return Some(true),
                None => return None,
                Some(false) => {}
            }
        }
        Some(false)
    }
    for first in 0..n {
        if !adj(from, fleets[first]) {
            continue;
        }
        path.clear();
        path.push(first);
        match extend(fleets, from, to, target, &mut path, &mut budget, &adj) {
            Some(true) => return true,
            Some(false) => {}
            None => return on_simple_route(map, fleets, from, to, target),
        }
    }
    false
}

/// Is `fleets[target]` on some simple route from `from` to `to`: are there
/// two paths through fleets, one from the target to `from` and one to `to`,
/// sharing no fleet but the target? Two augmenting paths of a unit-capacity
/// flow over split fleet nodes, so the answer is exact and polynomial (a
/// fleet reachable from both ends only through one neighbour, a dead end, is
/// on no route).
pub fn on_simple_route(map: &Map, fleets: &[ProvinceId], from: ProvinceId, to: ProvinceId, target: usize) -> bool {
    let n = fleets.len();
    if target >= n || from == to {
        return false;
    }
    // Nodes: fleet i enters at 2i and leaves at 2i + 1; then the `from`
    // end, the `to` end and the sink. Each end takes one path.
    let (end_from, end_to, sink) = (2 * n, 2 * n + 1, 2 * n + 2);
    let size = 2 * n + 3;
    let mut cap = vec![0u8; size * size];
    for i in 0..n {
        cap[2 * i * size + 2 * i + 1] = if i == target { 2 } else { 1 };
        for j in 0..n {
            if i != j && map.convoy_adjacent(fleets[i], fleets[j]) {
                cap[(2 * i + 1) * size + 2 * j] = 1;
            }
        }
        if map.convoy_adjacent(fleets[i], from) {
            cap[(2 * i + 1) * size + end_from] = 1;
        }
        if map.convoy_adjacent(fleets[i], to) {
            cap[(2 * i + 1) * size + end_to] = 1;
        }
    }
    cap[end_from * size + sink] = 1;
    cap[end_to * size + sink] = 1;
    let source = 2 * target + 1;
    let mut prev = vec![usize::MAX; size];
    let mut queue = std::collections::VecDeque::new();
    for _ in 0..2 {
        prev.fill(usize::MAX);
        prev[source] = source;
        queue.clear();
        queue.push_back(source);
        while let Some(u) = queue.pop_front() {
            for v in 0..size {
                if prev[v] == usize::MAX && cap[u * size + v] > 0 {
                    prev[v] = u;
                    queue.push_back(v);
                }
            }
        }
        if prev[sink] == usize::MAX {
            return false;
        }
        let mut v = sink;
        while v != source {
            let u = prev[v];
            cap[u * size + v] -= 1;
            cap[v * size + u] += 1;
            v = u;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{EdgeFlags, MapBuilder, Terrain, UnitType};

    /// A `side` × `side` grid of seas full of fleets between two coasts at
    /// opposite corners: the induced corner-to-corner paths are so many that
    /// the minimal-route search runs out of steps. `extra` seas hang off
    /// the grid cells listed with them.
    fn crowded(side: usize, extra: &[&[usize]]) -> (Map, Vec<ProvinceId>, ProvinceId, ProvinceId) {
        let mut b = MapBuilder::new("crowded");
        b.add_power("A", "Alpha", "Alphan");
        b.add_unit_type(UnitType::army());
        let fleet = b.add_unit_type(UnitType::fleet());
        let from = b.add_province("from", "From", Terrain::Coast, false);
        let to = b.add_province("to", "To", Terrain::Coast, false);
        let seas: Vec<ProvinceId> = (0..side * side)
            .map(|i| b.add_province(&format!("s{i}"), &format!("S{i}"), Terrain::Sea, false))
            .collect();
        let region = |p: ProvinceId| crate::ids::RegionId(p.0);
        for r in 0..side {
            for c in 0..side {
                let i = r * side + c;
                if c + 1 < side {
                    b.add_border(fleet, region(seas[i]), region(seas[i + 1]), EdgeFlags::default());
                }
                if r + 1 < side {
                    b.add_border(fleet, region(seas[i]), region(seas[i + side]), EdgeFlags::default());
                }
            }
        }
        b.add_border(fleet, region(from), region(seas[0]), EdgeFlags::default());
        b.add_border(fleet, region(to), region(seas[side * side - 1]), EdgeFlags::default());
        let mut fleets = seas.clone();
        for (k, cells) in extra.iter().enumerate() {
            let x = b.add_province(&format!("x{k}"), &format!("X{k}"), Terrain::Sea, false);
            for &c in cells.iter() {
                b.add_border(fleet, region(x), region(seas[c]), EdgeFlags::default());
            }
            fleets.push(x);
        }
        (b.build().unwrap(), fleets, from, to)
    }

    #[test]
    fn dead_end_fleet_was_on_a_minimal_route_of_a_crowded_board() {
        // The sea past s1 touches only s1: no route can pass through it, but
        // past the step budget the search accepted any fleet reachable from
        // both ends, so its convoy order was listed and adjudicated.
        let (map, fleets, from, to) = crowded(7, &[&[1]]);
        let dead_end = fleets.len() - 1;
        assert!(!on_minimal_route(&map, &fleets, from, to, dead_end));
        assert!(!on_simple_route(&map, &fleets, from, to, dead_end));
        // Grid fleets are still on routes, the corners on every one.
        assert!(on_minimal_route(&map, &fleets, from, to, 0));
        assert!(on_minimal_route(&map, &fleets, from, to, 1));
        assert!(on_minimal_route(&map, &fleets, from, to, 48));
    }

    #[test]
    fn simple_route_needs_two_disjoint_ways_out_of_the_fleet() {
        // A sea bridging s1 and s7 lies on a simple route (from, s0, s1, x,
        // s7, ...); a sea touching s1 and s2 only lies on simple routes too.
        let (map, fleets, from, to) = crowded(3, &[&[1, 5], &[1, 2]]);
        let n = fleets.len();
        assert!(on_simple_route(&map, &fleets, from, to, n - 2));
        assert!(on_simple_route(&map, &fleets, from, to, n - 1));
        // But only the first is on a minimal one: s1-s2 is a shortcut past
        // the second.
        assert!(on_minimal_route(&map, &fleets, from, to, n - 2));
        assert!(!on_minimal_route(&map, &fleets, from, to, n - 1));
    }
}
