//! TRANSFORM: points of each selected game turned into the values rated.

use super::*;

impl Interp<'_> {
    pub(super) fn transform(&mut self, name: &str) -> R {
        let t = self.transformations[name].clone();
        let default = t.vars.is_empty() && t.transform.is("P/MEAN");
        let mut new_sel = self.sel.clone();
        for s in new_sel.iter_mut() {
            let pts: Vec<f64> = s.entries.iter().map(|e| e.p).collect();
            let st = stats(&pts);
            if default {
                for e in s.entries.iter_mut() {
                    e.p /= st.mean;
                }
                continue;
            }
            let rk = ranks(&pts);
            let g = &self.games[s.game];
            let mut extra: HashMap<String, Value> = HashMap::new();
            for vd in &t.vars {
                let mk = |extra: &HashMap<String, Value>, i: Option<usize>| -> R<Value> {
                    let sc = GameScope {
                        it: self,
                        g,
                        pts: &pts,
                        entries: &s.entries,
                        st,
                        rk: &rk,
                        weight: Some(s.weight),
                        i,
                        v: 0.0,
                        extra,
                        sel: None,
                    };
                    eval(&vd.formula.expr, &sc).map_err(|e| vd.formula.err(e))
                };
                match &vd.range {
                    Range::None => {
                        let v = mk(&extra, None)?;
                        extra.insert(vd.name.clone(), v);
                    }
                    Range::Span(ab) => {
                        let (a, b) = &**ab;
                        let n = pts.len() as i64;
                        let bound = |f: &Option<Formula>, dflt: i64| -> R<i64> {
                            match f {
                                None => Ok(dflt),
                                Some(f) => {
                                    let sc = GameScope {
                                        it: self,
                                        g,
                                        pts: &pts,
                                        entries: &s.entries,
                                        st,
                                        rk: &rk,
                                        weight: Some(s.weight),
                                        i: None,
                                        v: 0.0,
                                        extra: &extra,
                                        sel: None,
                                    };
                                    let v = eval(&f.expr, &sc).map_err(|e| f.err(e))?.num();
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
                            let v = mk(&extra, Some(i as usize - 1))?;
                            extra.insert(vd.name.clone(), v);
                        }
                    }
                }
            }
            let mut v = 0.0;
            let mut new = Vec::with_capacity(pts.len());
            for i in 0..pts.len() {
                let sc = GameScope {
                    it: self,
                    g,
                    pts: &pts,
                    entries: &s.entries,
                    st,
                    rk: &rk,
                    weight: Some(s.weight),
                    i: Some(i),
                    v,
                    extra: &extra,
                    sel: None,
                };
                v = eval(&t.transform.expr, &sc).map_err(|e| t.transform.err(e))?.num();
                new.push(v);
            }
            for (e, v) in s.entries.iter_mut().zip(new) {
                e.p = v;
            }
            s.entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        }
        self.sel = new_sel;
        self.calc = None;
        Ok(())
    }
}
