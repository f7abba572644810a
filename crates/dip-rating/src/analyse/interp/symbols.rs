//! Symbols: their lookup and SET / GSET / PSET.

use super::*;

impl Interp<'_> {
    pub(super) fn lookup(&self, name: &str) -> Option<Value> {
        for f in self.frames.iter().rev() {
            if let Some(v) = f.get(name) {
                return Some(v.clone());
            }
        }
        if let Some(v) = self.globals.get(name) {
            return Some(v.clone());
        }
        match name {
            "NONE" => Some(Value::None),
            "NFILES" => Some(Value::Num(self.files.len() as f64)),
            "REFDATE" => Some(Value::Num(self.refdate.number())),
            "REFYEAR" => Some(Value::Num(self.refdate.y as f64)),
            "REFMONTH" => Some(Value::Num(self.refdate.m as f64)),
            "REFDAY" => Some(Value::Num(self.refdate.d as f64)),
            _ => None,
        }
    }

    /// SET / GSET / PSET and #DEFINE / #GDEFINE / #PDEFINE.
    pub(super) fn set(&mut self, l: &LLine, scope: Scope3) -> R {
        let t = l.text.as_bytes();
        let mut k = 0;
        let mut any = false;
        loop {
            while k < t.len() && (t[k] == b' ' || t[k] == b',' || t[k] == b';') {
                k += 1;
            }
            if k >= t.len() {
                break;
            }
            let start = k;
            while k < t.len() && (t[k].is_ascii_alphanumeric() || b"$_-+.".contains(&t[k]) || t[k] >= 0x80) {
                k += 1;
            }
            if k == start {
                return Err(err_at(l, k, "expected a symbol name"));
            }
            let name = l.text[start..k].to_ascii_uppercase();
            while k < t.len() && t[k] == b' ' {
                k += 1;
            }
            let mut value = Value::Num(0.0);
            let mut formula = None;
            if k < t.len() && (t[k] == b'=' || t[k] == b':') {
                k += if t[k] == b':' && t.get(k + 1) == Some(&b'=') {
                    2
                } else {
                    1
                };
                let end = find_top(&l.text, k, b';');
                let sub = LLine {
                    file: l.file.clone(),
                    text: l.text[k..end].to_string(),
                    at: l.at[k..end].to_vec(),
                };
                let sub = sub.tail(0);
                if sub.text.is_empty() {
                    return Err(err_at(l, end, format!("expected a value for {name}")));
                }
                let f = Formula::parse(&sub)?;
                if scope != Scope3::Player {
                    let s = SymScope { it: self };
                    value = eval(&f.expr, &s).map_err(|e| f.err(e))?;
                }
                formula = Some(f);
                k = end;
            }
            match scope {
                Scope3::Local => {
                    self.frames.last_mut().expect("frame").insert(name, value);
                }
                Scope3::Global => {
                    self.globals.insert(name, value);
                }
                Scope3::Player => self.pset(&name, formula.as_ref())?,
            }
            any = true;
        }
        if !any {
            return Err(err_at(l, 0, "expected one or more symbols"));
        }
        Ok(())
    }

    fn pset(&mut self, name: &str, f: Option<&Formula>) -> R {
        let ids = self.listed_players();
        let mut vals = Vec::with_capacity(ids.len());
        for (k, &p) in ids.iter().enumerate() {
            let v = match f {
                None => 0.0,
                Some(f) => {
                    let s = PlayerScope {
                        it: self,
                        p,
                        i: k + 1,
                        r: (k + 1, 1),
                        np: ids.len(),
                    };
                    eval(&f.expr, &s).map_err(|e| f.err(e))?.num()
                }
            };
            vals.push(v);
        }
        for (p, v) in ids.into_iter().zip(vals) {
            self.players[p].vars.insert(name.to_string(), v);
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope3 {
    Local,
    Global,
    Player,
}
