//! CALCULATE: the iterative strength computation and the game statistics
//! (FIRST, MEAN, MEDIAN, MIDDLE, BINOMIAL) it uses.

use super::*;

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Stats {
    pub(super) first: f64,
    pub(super) mean: f64,
    pub(super) median: f64,
    pub(super) middle: f64,
    pub(super) binomial: f64,
}

pub(super) fn binom(n: usize, k: usize) -> f64 {
    let k = k.min(n - k.min(n));
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

/// FIRST, MEAN, MEDIAN, MIDDLE and BINOMIAL of points sorted from best to worst.
pub(super) fn stats(p: &[f64]) -> Stats {
    let n = p.len();
    if n == 0 {
        return Stats::default();
    }
    let mean = p.iter().sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        p[n / 2]
    } else {
        (p[n / 2 - 1] + p[n / 2]) / 2.0
    };
    let (mut mw, mut ms, mut bw, mut bs) = (0.0, 0.0, 0.0, 0.0);
    for (i, &x) in p.iter().enumerate() {
        let m = (i + 1).min(n - i) as f64;
        mw += m;
        ms += m * x;
        let b = binom(n - 1, i);
        bw += b;
        bs += b * x;
    }
    Stats {
        first: p[0],
        mean,
        median,
        middle: ms / mw,
        binomial: bs / bw,
    }
}

/// Ranks with ties (1,2,2,2,5) and the size of each tie, for values sorted
/// so that equal values are adjacent.
pub(super) fn ranks(v: &[f64]) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0); v.len()];
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && v[j] == v[i] {
            j += 1;
        }
        for o in &mut out[i..j] {
            *o = (i + 1, j - i);
        }
        i = j;
    }
    out
}

impl Interp<'_> {
    fn iter_params(&self) -> R<IterParams> {
        let (a, b, c) = self.iterations[&self.cur_iteration].clone();
        let mut p = IterParams::default();
        let num = |f: &Formula| -> R<f64> {
            let s = SymScope { it: self };
            Ok(eval(&f.expr, &s).map_err(|e| f.err(e))?.num())
        };
        if let Some(f) = &a {
            let v = num(f)?;
            if !(1.0..=1_000_000.0).contains(&v) {
                return Err(at_err(
                    &f.src,
                    ExprError {
                        at: 0,
                        msg: "MINIMUM must be between 1 and 1000000".into(),
                    },
                ));
            }
            p.minimum = v as u32;
        }
        if let Some(f) = &b {
            let v = num(f)?;
            if !(1.0..=1_000_000.0).contains(&v) || (v as u32) < p.minimum {
                return Err(at_err(
                    &f.src,
                    ExprError {
                        at: 0,
                        msg: "MAXIMUM must be between MINIMUM and 1000000".into(),
                    },
                ));
            }
            p.maximum = v as u32;
        } else {
            p.maximum = p.maximum.max(p.minimum);
        }
        if let Some(f) = &c {
            let v = num(f)?;
            if v.is_nan() || v < 0.0 {
                return Err(at_err(
                    &f.src,
                    ExprError {
                        at: 0,
                        msg: "EPSILON must be 0 or positive".into(),
                    },
                ));
            }
            p.epsilon = v;
        }
        Ok(p)
    }

    /// CALCULATE: the strengths of the players in the selected games, with
    /// the current game level, player level(s) and iteration.
    pub(super) fn calculate(&mut self, l: &LLine) -> R {
        let params = self.iter_params()?;
        let flat = self.flat_entries()?;
        let inp = CalcInput {
            n_players: self.players.len(),
            offsets: &flat.offsets,
            players: &flat.players,
            points: &flat.points,
            weights: &flat.weights,
        };
        let out = self.iterate_levels(&inp, params)?;
        self.report_calculation(&out)?;
        let _ = l;
        self.calc_offsets = flat.offsets;
        self.calc = Some(out);
        Ok(())
    }

    /// The selected games' entries laid end to end, as the engine takes them.
    fn flat_entries(&self) -> R<FlatEntries> {
        let mut f = FlatEntries {
            offsets: Vec::with_capacity(self.sel.len() + 1),
            players: Vec::new(),
            points: Vec::new(),
            weights: Vec::with_capacity(self.sel.len()),
        };
        f.offsets.push(0);
        for s in &self.sel {
            if s.entries.len() < 2 {
                let g = &self.games[s.game];
                return Err(Error::new(
                    &g.raw.file,
                    g.raw.line,
                    1,
                    "a game needs at least two players for CALCULATE",
                ));
            }
            for e in &s.entries {
                f.players.push(e.player);
                f.points.push(e.p);
            }
            f.weights.push(s.weight);
            f.offsets.push(f.players.len());
        }
        Ok(f)
    }

    /// Runs the iteration with the level formulas compiled to slot programs
    /// where they can be (symbols become constants), evaluated otherwise.
    fn iterate_levels(&self, inp: &CalcInput, params: IterParams) -> R<CalcOutput> {
        let glf = self.gamelevels[&self.cur_gamelevel].clone();
        let plf = self.playerlevels[&self.cur_playerlevel.0].clone();
        let plf2 = self.cur_playerlevel.1.as_ref().map(|n| self.playerlevels[n].clone());
        let resolver = |slots: &[&str]| {
            let slots: Vec<String> = slots.iter().map(|s| s.to_string()).collect();
            move |it: &Interp, n: &str| -> Option<Resolved> {
                if let Some(i) = slots.iter().position(|s| s == n) {
                    return Some(Resolved::Slot(i as u16));
                }
                match it.lookup(n) {
                    Some(Value::Num(v)) => Some(Resolved::Const(v)),
                    _ => None,
                }
            }
        };
        let rg = resolver(&GL_SLOTS);
        let rp = resolver(&PL_SLOTS);
        let gprog = NumProg::compile(&glf.expr, &|n| rg(self, n));
        let pprog = NumProg::compile(&plf.expr, &|n| rp(self, n));
        let pprog2 = plf2.as_ref().and_then(|f| NumProg::compile(&f.expr, &|n| rp(self, n)));
        let this: &Interp = self;
        let mut gfun = |_e: usize, s: &[f64]| -> R<f64> {
            match &gprog {
                Some(p) => Ok(p.run(s)),
                None => {
                    let sc = SlotScope {
                        it: this,
                        names: &GL_SLOTS,
                        vals: s,
                        player: None,
                    };
                    Ok(eval(&glf.expr, &sc).map_err(|e| glf.err(e))?.num())
                }
            }
        };
        let mk_p = |prog: Option<NumProg>, f: Formula| {
            move |p: usize, s: &[f64]| -> R<f64> {
                match &prog {
                    Some(pr) => Ok(pr.run(s)),
                    None => {
                        let sc = SlotScope {
                            it: this,
                            names: &PL_SLOTS,
                            vals: s,
                            player: Some(p),
                        };
                        Ok(eval(&f.expr, &sc).map_err(|e| f.err(e))?.num())
                    }
                }
            }
        };
        let mut pfun = mk_p(pprog, plf.clone());
        let mut pfun2 = plf2.map(|f| mk_p(pprog2, f));
        engine::iterate(
            inp,
            params,
            &mut gfun,
            &mut pfun,
            pfun2.as_mut().map(|f| f as &mut dyn FnMut(usize, &[f64]) -> R<f64>),
        )
    }

    /// The logs of a calculation, and on the output the note that the
    /// players fell into groups that never met.
    fn report_calculation(&mut self, out: &CalcOutput) -> R {
        // LOGGING ITERATIONS (level 7): how the iteration went, step by step.
        if self.logs("ITERATIONS") {
            for (i, c) in out.changes.iter().enumerate() {
                let _ = self.log(
                    "ITERATIONS",
                    &format!("ITERATION step {}: largest change {c:.3e}", i + 1),
                );
            }
        }
        let msg = format!(
            "CALCULATE: {} games, {} players, {} steps, largest change {:.3e}",
            self.sel.len(),
            out.group_sizes.iter().sum::<usize>(),
            out.iterations,
            out.change2.sqrt()
        );
        let _ = self.log("CALCULATIONS", &msg);
        if out.group_sizes.len() > 1 {
            let mut m = format!(
                "note: the selected games form {} groups of players who never met, not even through other players; strengths are normalised within each group and cannot be compared across groups:",
                out.group_sizes.len()
            );
            for (i, s) in out.group_sizes.iter().enumerate() {
                let names: Vec<&str> = (0..self.players.len())
                    .filter(|&p| out.group[p] == i as u32 + 1)
                    .take(5)
                    .map(|p| self.players[p].name.as_str())
                    .collect();
                let more = if *s > names.len() { ", …" } else { "" };
                m.push_str(&format!(
                    "\n  group {}: {} players ({}{more})",
                    i + 1,
                    s,
                    names.join(", ")
                ));
            }
            let o = self.output.clone();
            self.write(&o, &format!("{m}\n"))?;
            let _ = self.log("CALCULATIONS", &m);
        }
        Ok(())
    }
}

/// The selected games' entries laid end to end: game `g`'s entries are
/// `offsets[g]..offsets[g + 1]` of `players` and `points`.
struct FlatEntries {
    offsets: Vec<usize>,
    players: Vec<u32>,
    points: Vec<f64>,
    weights: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_points() {
        let s = stats(&[4.0, 3.0, 2.0, 1.0]);
        assert_eq!(s.mean, 2.5);
        assert_eq!(s.median, 2.5);
        // binomial weights 1,3,3,1
        assert_eq!(s.binomial, (4.0 + 9.0 + 6.0 + 1.0) / 8.0);
        // middle weights 1,2,2,1
        assert_eq!(s.middle, (4.0 + 6.0 + 4.0 + 1.0) / 6.0);
        assert_eq!(
            ranks(&[5.0, 3.0, 3.0, 3.0, 1.0]),
            vec![(1, 1), (2, 3), (2, 3), (2, 3), (5, 1)]
        );
    }
}
