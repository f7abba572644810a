//! The iterative strength computation of Analyse (section 4.1, step 5).
//!
//! 1. Every player's strength LEVEL starts at 1.
//! 2. In every game each player gets a subjective game value from the
//!    GAMELEVEL formula, f(WEIGHT, P, LEVEL, SUMLEVEL, GAMELEVEL, N), where
//!    SUMLEVEL is the sum of the strengths of the game's players and
//!    GAMELEVEL = SUMLEVEL / N. Default: `WEIGHT * P * (SUMLEVEL-LEVEL) / (N-1)`,
//!    the player's points times the mean strength of the opponents.
//! 3. Per player: N (games), SUM (sum of game values), WSUM (sum of weights),
//!    BEST/WBEST and WORST/WWORST (best and worst game value and its weight);
//!    the PLAYERLEVEL formula (default `SUM/WSUM`) gives LEVEL0.
//! 4. Strengths are scaled so that within each group of players who met
//!    (directly or through others) they sum to the group's size; in total they
//!    sum to the number of players. Groups are never mixed.
//! 5. Repeat from 2 until at least MINIMUM steps are done and either MAXIMUM
//!    steps are done or the square of the largest change of a strength is
//!    below EPSILON (EPSILON = 0 turns that test off).
#![allow(clippy::needless_range_loop)]

/// MINIMUM, MAXIMUM and EPSILON of an ITERATION object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterParams {
    pub minimum: u32,
    pub maximum: u32,
    pub epsilon: f64,
}

impl Default for IterParams {
    /// dip's defaults (the manual gives none): at least 1 step, at most
    /// 1000, stop when the largest change is below 1e-9 (EPSILON 1e-18).
    fn default() -> Self {
        IterParams {
            minimum: 1,
            maximum: 1000,
            epsilon: 1e-18,
        }
    }
}

/// The selected games, flattened: game `g` has the entries
/// `offsets[g]..offsets[g+1]` of `players` and `points`.
pub struct CalcInput<'a> {
    pub n_players: usize,
    pub offsets: &'a [usize],
    pub players: &'a [u32],
    pub points: &'a [f64],
    pub weights: &'a [f64],
}

/// Everything the computation produces, per player, per game and per entry.
#[derive(Debug, Clone, Default)]
pub struct CalcOutput {
    /// Normalised strength (0 for players in no selected game).
    pub level: Vec<f64>,
    /// Strength before normalisation.
    pub level0: Vec<f64>,
    /// Group number per player, 1 = largest group; 0 = in no selected game.
    pub group: Vec<u32>,
    /// Size of each group (index 0 = group 1).
    pub group_sizes: Vec<usize>,
    pub game_group: Vec<u32>,
    /// Subjective game value per entry (GLEVEL) from the last step.
    pub glevel: Vec<f64>,
    /// Per game: SUMLEVEL/N, scaled so that they sum to the number of games.
    pub gamelevel: Vec<f64>,
    pub n: Vec<u32>,
    pub sum: Vec<f64>,
    pub wsum: Vec<f64>,
    pub best: Vec<f64>,
    pub wbest: Vec<f64>,
    pub worst: Vec<f64>,
    pub wworst: Vec<f64>,
    pub iterations: u32,
    /// Square of the largest change in the last step.
    pub change2: f64,
    /// The largest change of every step, in order (LOGGING ITERATIONS).
    pub changes: Vec<f64>,
}

/// Slots of the GAMELEVEL formula.
pub const GL_SLOTS: [&str; 6] = ["WEIGHT", "P", "LEVEL", "SUMLEVEL", "GAMELEVEL", "N"];
/// Slots of the PLAYERLEVEL formula.
pub const PL_SLOTS: [&str; 7] = ["SUM", "WSUM", "BEST", "WBEST", "WORST", "WWORST", "N"];

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[parent[x as usize] as usize];
        parent[x as usize] = p;
        x = p;
    }
    x
}

/// Connected components of the players over the games: (group per player,
/// group sizes). Group 1 is the largest; ties by first appearance.
pub fn groups(inp: &CalcInput) -> (Vec<u32>, Vec<usize>) {
    let n = inp.n_players;
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut seen = vec![false; n];
    let games = inp.offsets.len().saturating_sub(1);
    for g in 0..games {
        let es = &inp.players[inp.offsets[g]..inp.offsets[g + 1]];
        for &p in es {
            seen[p as usize] = true;
        }
        if let Some(&first) = es.first() {
            let r0 = find(&mut parent, first);
            for &p in &es[1..] {
                let r = find(&mut parent, p);
                if r != r0 {
                    parent[r as usize] = r0;
                }
            }
        }
    }
    let mut root_order: Vec<u32> = Vec::new();
    let mut root_id = vec![u32::MAX; n];
    let mut sizes: Vec<usize> = Vec::new();
    for p in 0..n {
        if !seen[p] {
            continue;
        }
        let r = find(&mut parent, p as u32) as usize;
        if root_id[r] == u32::MAX {
            root_id[r] = root_order.len() as u32;
            root_order.push(r as u32);
            sizes.push(0);
        }
        sizes[root_id[r] as usize] += 1;
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    let mut rank = vec![0u32; sizes.len()];
    for (k, &o) in order.iter().enumerate() {
        rank[o] = k as u32 + 1;
    }
    let mut group = vec![0u32; n];
    for p in 0..n {
        if seen[p] {
            let r = find(&mut parent, p as u32) as usize;
            group[p] = rank[root_id[r] as usize];
        }
    }
    let sorted_sizes = order.iter().map(|&o| sizes[o]).collect();
    (group, sorted_sizes)
}

/// Runs the iteration. `gamelevel` gets the slots [`GL_SLOTS`], `playerlevel`
/// the slots [`PL_SLOTS`]; `final_playerlevel` (the second PLAYERLEVEL mode)
/// computes the strengths after the last step when given.
pub fn iterate<E>(
    inp: &CalcInput,
    params: IterParams,
    gamelevel: &mut dyn FnMut(usize, &[f64]) -> Result<f64, E>,
    playerlevel: &mut dyn FnMut(usize, &[f64]) -> Result<f64, E>,
    mut final_playerlevel: Option<&mut dyn FnMut(usize, &[f64]) -> Result<f64, E>>,
) -> Result<CalcOutput, E> {
    let np = inp.n_players;
    let games = inp.offsets.len().saturating_sub(1);
    let (group, group_sizes) = groups(inp);
    let mut out = CalcOutput {
        level: group.iter().map(|&g| if g > 0 { 1.0 } else { 0.0 }).collect(),
        level0: vec![0.0; np],
        glevel: vec![0.0; inp.players.len()],
        gamelevel: vec![1.0; games],
        n: vec![0; np],
        sum: vec![0.0; np],
        wsum: vec![0.0; np],
        best: vec![0.0; np],
        wbest: vec![0.0; np],
        worst: vec![0.0; np],
        wworst: vec![0.0; np],
        game_group: (0..games)
            .map(|g| inp.players.get(inp.offsets[g]).map(|&p| group[p as usize]).unwrap_or(0))
            .collect(),
        group,
        group_sizes,
        ..Default::default()
    };
    let min = params.minimum.max(1);
    let max = params.maximum.max(min);
    let mut gsum = vec![0.0f64; out.group_sizes.len() + 1];
    loop {
        step_sums(inp, &mut out, gamelevel)?;
        for p in 0..np {
            if out.n[p] == 0 {
                continue;
            }
            out.level0[p] = playerlevel(p, &pl_slots(&out, p))?;
        }
        let change2 = normalise(&mut out, &mut gsum);
        out.iterations += 1;
        out.change2 = change2;
        out.changes.push(change2.sqrt());
        if out.iterations >= min && (out.iterations >= max || (params.epsilon > 0.0 && change2 < params.epsilon)) {
            break;
        }
    }
    if let Some(f) = final_playerlevel.as_mut() {
        step_sums(inp, &mut out, gamelevel)?;
        for p in 0..np {
            if out.n[p] > 0 {
                out.level0[p] = f(p, &pl_slots(&out, p))?;
            }
        }
        normalise(&mut out, &mut gsum);
    }
    // game strengths, scaled to sum to the number of games
    let mut total = 0.0;
    for g in 0..games {
        let es = &inp.players[inp.offsets[g]..inp.offsets[g + 1]];
        let s: f64 = es.iter().map(|&p| out.level[p as usize]).sum();
        out.gamelevel[g] = if es.is_empty() { 0.0 } else { s / es.len() as f64 };
        total += out.gamelevel[g];
    }
    if total > 0.0 {
        let k = games as f64 / total;
        for x in &mut out.gamelevel {
            *x *= k;
        }
    }
    Ok(out)
}

fn pl_slots(out: &CalcOutput, p: usize) -> [f64; 7] {
    [
        out.sum[p],
        out.wsum[p],
        out.best[p],
        out.wbest[p],
        out.worst[p],
        out.wworst[p],
        out.n[p] as f64,
    ]
}

fn step_sums<E>(
    inp: &CalcInput,
    out: &mut CalcOutput,
    gamelevel: &mut dyn FnMut(usize, &[f64]) -> Result<f64, E>,
) -> Result<(), E> {
    let games = inp.offsets.len().saturating_sub(1);
    out.n.iter_mut().for_each(|x| *x = 0);
    out.sum.iter_mut().for_each(|x| *x = 0.0);
    out.wsum.iter_mut().for_each(|x| *x = 0.0);
    for g in 0..games {
        let (a, b) = (inp.offsets[g], inp.offsets[g + 1]);
        let n = (b - a) as f64;
        let w = inp.weights[g];
        let mut sumlevel = 0.0;
        for &p in &inp.players[a..b] {
            sumlevel += out.level[p as usize];
        }
        let gl = sumlevel / n;
        for e in a..b {
            let p = inp.players[e] as usize;
            let v = gamelevel(e, &[w, inp.points[e], out.level[p], sumlevel, gl, n])?;
            out.glevel[e] = v;
            if out.n[p] == 0 || v > out.best[p] {
                out.best[p] = v;
                out.wbest[p] = w;
            }
            if out.n[p] == 0 || v < out.worst[p] {
                out.worst[p] = v;
                out.wworst[p] = w;
            }
            out.n[p] += 1;
            out.sum[p] += v;
            out.wsum[p] += w;
        }
    }
    Ok(())
}

/// Scales LEVEL0 into LEVEL per group; returns the square of the largest change.
fn normalise(out: &mut CalcOutput, gsum: &mut [f64]) -> f64 {
    gsum.iter_mut().for_each(|x| *x = 0.0);
    for (p, &g) in out.group.iter().enumerate() {
        if g > 0 {
            gsum[g as usize] += out.level0[p];
        }
    }
    let mut change2: f64 = 0.0;
    for p in 0..out.level.len() {
        let g = out.group[p] as usize;
        if g == 0 {
            continue;
        }
        let s = gsum[g];
        let new = if s != 0.0 {
            out.level0[p] * out.group_sizes[g - 1] as f64 / s
        } else {
            out.level0[p]
        };
        let d = new - out.level[p];
        if d * d > change2 || d.is_nan() {
            change2 = if d.is_nan() { f64::INFINITY } else { d * d };
        }
        out.level[p] = new;
    }
    change2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults(inp: &CalcInput, params: IterParams) -> CalcOutput {
        iterate::<()>(
            inp,
            params,
            &mut |_, s| Ok(s[0] * s[1] * (s[3] - s[2]) / (s[5] - 1.0)),
            &mut |_, s| Ok(s[0] / s[1]),
            None,
        )
        .unwrap()
    }

    #[test]
    fn groups_are_components() {
        // games {0,1}, {1,2}, {3,4}: two groups, the larger first
        let inp = CalcInput {
            n_players: 6,
            offsets: &[0, 2, 4, 6],
            players: &[3, 4, 0, 1, 1, 2],
            points: &[1.0; 6],
            weights: &[1.0; 3],
        };
        let (g, sizes) = groups(&inp);
        assert_eq!(g, vec![1, 1, 1, 2, 2, 0]);
        assert_eq!(sizes, vec![3, 2]);
    }

    #[test]
    fn normalised_per_group_and_in_total() {
        let inp = CalcInput {
            n_players: 5,
            offsets: &[0, 3, 5],
            players: &[0, 1, 2, 3, 4],
            points: &[1.5, 1.0, 0.5, 1.2, 0.8],
            weights: &[1.0; 2],
        };
        let out = defaults(&inp, IterParams::default());
        assert!((out.level[0] + out.level[1] + out.level[2] - 3.0).abs() < 1e-12);
        assert!((out.level[3] + out.level[4] - 2.0).abs() < 1e-12);
    }
}
