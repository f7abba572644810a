//! PRINT: printing players and games with the print definitions.

use super::*;

impl Interp<'_> {
    /// Players in the selected games, in order of first appearance.
    pub(super) fn listed_players(&self) -> Vec<usize> {
        let mut seen = vec![false; self.players.len()];
        let mut v = Vec::new();
        let src: Box<dyn Iterator<Item = &Entry>> = if self.sel.is_empty() && self.selection.is_none() {
            Box::new(self.games.iter().flat_map(|g| g.entries.iter()))
        } else {
            Box::new(self.sel.iter().flat_map(|s| s.entries.iter()))
        };
        let mut by_pos: Vec<(usize, usize)> = Vec::new();
        for e in src {
            if !seen[e.player as usize] {
                seen[e.player as usize] = true;
                by_pos.push((by_pos.len(), e.player as usize));
            }
        }
        for (_, p) in by_pos {
            v.push(p);
        }
        v
    }

    fn print_target(&mut self, pd: &mut PrintDef) -> R<String> {
        pd.uses += 1;
        match &pd.filename {
            Some(f) => {
                if pd.uses == 1 && !pd.append {
                    self.host
                        .write(f, false, "")
                        .map_err(|e| Error::plain(format!("cannot write `{f}`: {e}")))?;
                }
                Ok(f.clone())
            }
            None => Ok(self.printfile.clone().unwrap_or_else(|| self.output.clone())),
        }
    }

    pub(super) fn print_players(&mut self, name: &str) -> R {
        let mut pd = self.printplayers[name].clone();
        let target = self.print_target(&mut pd)?;
        self.printplayers.insert(name.to_string(), pd.clone());
        let mut ids = self.listed_players();
        let sm = self.sortmodes[&self.cur_sort].clone();
        let mut keys = vec![Value::Num(0.0); self.players.len()];
        if pd.sort {
            for (k, &p) in ids.iter().enumerate() {
                let s = PlayerScope {
                    it: self,
                    p,
                    i: k + 1,
                    r: (k + 1, 1),
                    np: ids.len(),
                };
                keys[p] = eval(&sm.sort.expr, &s).map_err(|e| sm.sort.err(e))?;
            }
            let cmp = |a: &Value, b: &Value| match (a, b) {
                (Value::Num(x), Value::Num(y)) => x.total_cmp(y),
                _ => a.text().to_lowercase().cmp(&b.text().to_lowercase()),
            };
            ids.sort_by(|&a, &b| {
                if sm.revers {
                    cmp(&keys[a], &keys[b])
                } else {
                    cmp(&keys[b], &keys[a])
                }
            });
        }
        let rk: Vec<(usize, usize)> = if pd.sort {
            let mut v = vec![(0, 0); ids.len()];
            let mut i = 0;
            while i < ids.len() {
                let mut j = i + 1;
                while j < ids.len() && keys[ids[j]] == keys[ids[i]] {
                    j += 1;
                }
                for o in &mut v[i..j] {
                    *o = (i + 1, j - i);
                }
                i = j;
            }
            v
        } else {
            (1..=ids.len()).map(|i| (i, 1)).collect()
        };
        let mut out = String::new();
        let np = ids.len();
        let hs = ListScope { it: self, np };
        let h = eval(&pd.header.expr, &hs).map_err(|e| pd.header.err(e))?.text();
        if !h.is_empty() {
            out.push_str(&h);
            out.push('\n');
        }
        for t in &pd.text {
            out.push_str(t);
            out.push('\n');
        }
        for (k, &p) in ids.iter().enumerate() {
            let s = PlayerScope {
                it: self,
                p,
                i: k + 1,
                r: rk[k],
                np,
            };
            out.push_str(&eval(&pd.player.expr, &s).map_err(|e| pd.player.err(e))?.text());
            out.push('\n');
        }
        let t = eval(&pd.trailer.expr, &hs).map_err(|e| pd.trailer.err(e))?.text();
        if !t.is_empty() {
            out.push_str(&t);
            out.push('\n');
        }
        let _ = self.log("PRINTINGS", &format!("PRINTPLAYERS {name}: {np} players"));
        self.write(&target, &out)
    }

    pub(super) fn print_games(&mut self, name: &str) -> R {
        let mut pd = self.printgames[name].clone();
        let target = self.print_target(&mut pd)?;
        self.printgames.insert(name.to_string(), pd.clone());
        // The definition's text lines once, before the first game.
        let mut out: String = pd.text.iter().map(|t| format!("{t}\n")).collect();
        let empty = HashMap::new();
        for (k, s) in self.sel.iter().enumerate() {
            let g = &self.games[s.game];
            let mut entries = s.entries.clone();
            if !pd.sort {
                entries.sort_by_key(|e| e.pos);
            }
            let pts: Vec<f64> = entries.iter().map(|e| e.p).collect();
            let rk = ranks(&s.entries.iter().map(|e| e.p).collect::<Vec<_>>());
            let st = stats(&s.entries.iter().map(|e| e.p).collect::<Vec<_>>());
            let hs = GameScope {
                it: self,
                g,
                pts: &pts,
                entries: &entries,
                st,
                rk: &rk,
                weight: Some(s.weight),
                i: None,
                v: 0.0,
                extra: &empty,
                sel: Some(k),
            };
            let h = eval(&pd.header.expr, &hs).map_err(|e| pd.header.err(e))?.text();
            if !h.is_empty() {
                out.push_str(&h);
                out.push('\n');
            }
            for i in 0..entries.len() {
                let ps = GameScope {
                    i: Some(i),
                    ..hs.clone()
                };
                out.push_str(&eval(&pd.player.expr, &ps).map_err(|e| pd.player.err(e))?.text());
                out.push('\n');
            }
            let t = eval(&pd.trailer.expr, &hs).map_err(|e| pd.trailer.err(e))?.text();
            if !t.is_empty() {
                out.push_str(&t);
                out.push('\n');
            }
        }
        self.write(&target, &out)
    }
}
