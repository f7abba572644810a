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
    let fleets: Vec<ProvinceId> = map.province_ids().filter(|&p| can_convoy_in(map, state, p)).collect();
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
/// Minimal chains are the induced paths between the two ends. Small boards
/// make the search cheap; past a step budget it answers as if any simple
/// route through the fleet were enough.
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
            None => return on_simple_route_fallback(map, fleets, from, to, target),
        }
    }
    false
}

/// Reachable from both ends: the lax answer, used only past the budget.
fn on_simple_route_fallback(map: &Map, fleets: &[ProvinceId], from: ProvinceId, to: ProvinceId, target: usize) -> bool {
    let reach = |start: ProvinceId| -> Vec<bool> {
        let mut seen = vec![false; fleets.len()];
        let mut stack: Vec<usize> = (0..fleets.len())
            .filter(|&i| map.convoy_adjacent(start, fleets[i]))
            .collect();
        while let Some(i) = stack.pop() {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            for j in 0..fleets.len() {
                if !seen[j] && map.convoy_adjacent(fleets[i], fleets[j]) {
                    stack.push(j);
                }
            }
        }
        seen
    };
    reach(from)[target] && reach(to)[target]
}
