//! TRANSFORM: points of each selected game turned into the values rated.

use super::*;

impl Interp<'_> {
    /// TRANSFORMATION name: each selected game's points become the values
    /// rated, best first.
    pub(super) fn transform(&mut self, name: &str) -> R {
        let t = self.transformations[name].clone();
        // the default, P/MEAN without variables, needs no formula
        let default = t.vars.is_empty() && t.transform.is("P/MEAN");
        let mut new_sel = self.sel.clone();
        for s in new_sel.iter_mut() {
            if default {
                let pts: Vec<f64> = s.entries.iter().map(|e| e.p).collect();
                let st = stats(&pts);
                for e in s.entries.iter_mut() {
                    e.p /= st.mean;
                }
                continue;
            }
            let new = self.transformed_points(&t, s)?;
            for (e, v) in s.entries.iter_mut().zip(new) {
                e.p = v;
            }
            s.entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        }
        self.sel = new_sel;
        self.calc = None;
        Ok(())
    }

    /// One game's points after the transformation: its formula for each
    /// place in turn, which sees the value of the place before as V.
    fn transformed_points(&self, t: &Transformation, s: &Sel) -> R<Vec<f64>> {
        let pts: Vec<f64> = s.entries.iter().map(|e| e.p).collect();
        let rk = ranks(&pts);
        let no_vars = HashMap::new();
        let base = GameScope {
            it: self,
            g: &self.games[s.game],
            pts: &pts,
            entries: &s.entries,
            st: stats(&pts),
            rk: &rk,
            weight: Some(s.weight),
            i: None,
            v: 0.0,
            extra: &no_vars,
            sel: None,
        };
        let extra = self.transform_variables(t, &base)?;
        let mut v = 0.0;
        let mut new = Vec::with_capacity(pts.len());
        for i in 0..pts.len() {
            let sc = GameScope {
                i: Some(i),
                v,
                extra: &extra,
                ..base.clone()
            };
            v = eval(&t.transform.expr, &sc).map_err(|e| t.transform.err(e))?.num();
            new.push(v);
        }
        Ok(new)
    }

    /// The transformation's VARIABLEs in order, each seeing those before it.
    /// One with a range `[a:b]` is evaluated for the places a to b in turn,
    /// each time seeing under its own name its value for the place before;
    /// the last value stays.
    fn transform_variables(&self, t: &Transformation, base: &GameScope) -> R<HashMap<String, Value>> {
        let mut extra: HashMap<String, Value> = HashMap::new();
        for vd in &t.vars {
            let at = |extra: &HashMap<String, Value>, i: Option<usize>, f: &Formula| -> R<Value> {
                let sc = GameScope {
                    i,
                    extra,
                    ..base.clone()
                };
                eval(&f.expr, &sc).map_err(|e| f.err(e))
            };
            match &vd.range {
                Range::None => {
                    let v = at(&extra, None, &vd.formula)?;
                    extra.insert(vd.name.clone(), v);
                }
                Range::Span(ab) => {
                    let (a, b) = &**ab;
                    let n = base.pts.len() as i64;
                    let bound = |f: &Option<Formula>, dflt: i64| -> R<i64> {
                        match f {
                            None => Ok(dflt),
                            Some(f) => {
                                let v = at(&extra, None, f)?.num();
                                Ok(if v.is_finite() {
                                    v.round().clamp(-1e9, 1e9) as i64
                                } else {
                                    dflt
                                })
                            }
                        }
                    };
                    let lo = bound(a, 1)?.max(1);
                    let hi = bound(b, n)?.min(n);
                    for i in lo..=hi {
                        let v = at(&extra, Some(i as usize - 1), &vd.formula)?;
                        extra.insert(vd.name.clone(), v);
                    }
                }
            }
        }
        Ok(extra)
    }
}
