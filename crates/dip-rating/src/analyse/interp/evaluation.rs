//! Evaluation commands and the selection of games.

use super::*;

impl Interp<'_> {
    /// A command of the evaluation mode: choosing the objects to use, then
    /// selecting, transforming, calculating, printing and saving.
    pub(super) fn eval_command(&mut self, word: &str, l: &LLine, rest: &LLine) -> R {
        let name = || object_name(word, l, rest);
        let known = |ok: bool, what: &str, n: &str| is_defined(ok, what, n, rest);
        match word {
            "SELECT" => {
                let n = name()?;
                known(self.selections.contains_key(&n), "SELECTION", &n)?;
                self.select(&n)
            }
            "RESELECT" => {
                let n = self.selection.clone().unwrap_or_else(|| "DEFAULT".into());
                self.select(&n)
            }
            "TRANSFORMATION" => {
                let n = name()?;
                known(self.transformations.contains_key(&n), "TRANSFORMATION", &n)?;
                self.ensure_selection()?;
                self.transform(&n)
            }
            "PLAYERLEVEL" => self.use_playerlevels(l, rest),
            "GAMELEVEL" => {
                let n = name()?;
                known(self.gamelevels.contains_key(&n), "GAMELEVEL", &n)?;
                self.cur_gamelevel = n;
                Ok(())
            }
            "ITERATE" | "ITERATION" => {
                let n = name()?;
                known(self.iterations.contains_key(&n), "ITERATION", &n)?;
                self.cur_iteration = n;
                Ok(())
            }
            "SORT" => {
                let n = name()?;
                known(self.sortmodes.contains_key(&n), "SORTMODE", &n)?;
                self.cur_sort = n;
                Ok(())
            }
            "CALCULATE" => {
                if !rest.text.is_empty() {
                    return Err(err_at(rest, 0, "CALCULATE takes no parameters"));
                }
                self.ensure_selection()?;
                self.calculate(l)
            }
            "PRINTGAMES" => {
                let n = name()?;
                known(self.printgames.contains_key(&n), "PRINTGAME", &n)?;
                self.ensure_selection()?;
                self.print_games(&n)
            }
            "PRINT" | "PRINTPLAYERS" => {
                let n = name()?;
                known(self.printplayers.contains_key(&n), "PRINTPLAYER", &n)?;
                self.ensure_selection()?;
                self.print_players(&n)
            }
            "CLEARVARS" => {
                for p in &mut self.players {
                    p.vars.clear();
                }
                Ok(())
            }
            "SAVEPLAYERS" | "TRANSFER" => {
                let n = name()?;
                self.save_players(l, &n)
            }
            "SAVEGAMES" => {
                let n = name()?;
                self.ensure_selection()?;
                self.save_games(&n);
                Ok(())
            }
            _ => Err(err_at(l, 0, format!("unknown command `{word}`"))),
        }
    }

    /// `PLAYERLEVEL a [b]`: the player level formula, and the one for
    /// players' later games when there are two.
    fn use_playerlevels(&mut self, l: &LLine, rest: &LLine) -> R {
        let ws = words(&rest.text);
        if ws.is_empty() || ws.len() > 2 {
            return Err(err_at(l, 0, "PLAYERLEVEL needs one or two names"));
        }
        let a = ws[0].1.to_ascii_uppercase();
        is_defined(self.playerlevels.contains_key(&a), "PLAYERLEVEL", &a, rest)?;
        let b = ws.get(1).map(|w| w.1.to_ascii_uppercase());
        if let Some(b) = &b {
            is_defined(self.playerlevels.contains_key(b), "PLAYERLEVEL", b, rest)?;
        }
        self.cur_playerlevel = (a, b);
        Ok(())
    }

    /// `SAVEPLAYERS name`: the last calculation's figures become player
    /// variables `name.LEVEL`, `name.SUM`, … for later calculations.
    fn save_players(&mut self, l: &LLine, n: &str) -> R {
        let Some(c) = &self.calc else {
            return Err(err_at(l, 0, "SAVEPLAYERS needs a CALCULATE first"));
        };
        for (p, pl) in self.players.iter_mut().enumerate() {
            if c.n[p] == 0 {
                continue;
            }
            for (k, v) in [
                ("N", c.n[p] as f64),
                ("SUM", c.sum[p]),
                ("WSUM", c.wsum[p]),
                ("BEST", c.best[p]),
                ("WBEST", c.wbest[p]),
                ("WORST", c.worst[p]),
                ("WWORST", c.wworst[p]),
                ("LEVEL", c.level[p]),
                ("LEVEL0", c.level0[p]),
            ] {
                pl.vars.insert(format!("{n}.{k}"), v);
            }
        }
        Ok(())
    }

    /// `SAVEGAMES name`: each selected game's statistics, weight and level
    /// become game variables `name.MEAN`, `name.WEIGHT`, ….
    fn save_games(&mut self, n: &str) {
        for (k, s) in self.sel.iter().enumerate() {
            let pts: Vec<f64> = s.entries.iter().map(|e| e.p).collect();
            let st = stats(&pts);
            let (gl, gg) = match &self.calc {
                Some(c) => (
                    c.gamelevel.get(k).copied().unwrap_or(0.0),
                    c.game_group.get(k).copied().unwrap_or(0) as f64,
                ),
                None => (1.0, 0.0),
            };
            let g = &mut self.games[s.game];
            for (key, v) in [
                ("FIRST", st.first),
                ("MEAN", st.mean),
                ("MEDIAN", st.median),
                ("BINOM", st.binomial),
                ("MIDDLE", st.middle),
                ("WEIGHT", s.weight),
                ("GAMELEVEL", gl),
                ("GROUP", gg),
            ] {
                g.vars.insert(format!("{n}.{key}"), v);
            }
        }
    }

    fn ensure_selection(&mut self) -> R {
        if self.selection.is_none() {
            self.select("DEFAULT")?;
        }
        Ok(())
    }

    pub(super) fn select(&mut self, name: &str) -> R {
        let f = self.selections[name].clone();
        let mut sel = Vec::new();
        let empty = HashMap::new();
        for (gi, g) in self.games.iter().enumerate() {
            let w = if f.is("1.0") || f.is("1") {
                1.0
            } else {
                let pts: Vec<f64> = g.entries.iter().map(|e| e.p).collect();
                let rk = ranks(&pts);
                let s = GameScope {
                    it: self,
                    g,
                    pts: &pts,
                    entries: &g.entries,
                    st: stats(&pts),
                    rk: &rk,
                    weight: None,
                    i: None,
                    v: 0.0,
                    extra: &empty,
                    sel: None,
                };
                eval(&f.expr, &s).map_err(|e| f.err(e))?.num()
            };
            if w > 0.0 {
                sel.push(Sel {
                    game: gi,
                    weight: w,
                    entries: g.entries.clone(),
                });
            }
        }
        let _ = self.log(
            "CALCULATIONS",
            &format!("SELECT {name}: {} of {} games", sel.len(), self.games.len()),
        );
        self.sel = sel;
        self.selection = Some(name.to_string());
        self.cur_playerlevel = ("DEFAULT".into(), None);
        self.cur_gamelevel = "DEFAULT".into();
        self.cur_iteration = "DEFAULT".into();
        self.calc = None;
        Ok(())
    }
}

/// The one object name after a command word.
fn object_name(word: &str, l: &LLine, rest: &LLine) -> R<String> {
    let ws = words(&rest.text);
    match ws.as_slice() {
        [] => Err(err_at(l, l.text.len(), format!("{word} needs a name"))),
        [(_, n)] => Ok(unquote(n).to_ascii_uppercase()),
        [_, (k, _), ..] => Err(err_at(rest, *k, "unexpected text after the name")),
    }
}

/// The error for an object that was never defined.
fn is_defined(ok: bool, what: &str, n: &str, rest: &LLine) -> R {
    if ok {
        Ok(())
    } else {
        Err(err_at(rest, 0, format!("no {what} named {n}")))
    }
}
