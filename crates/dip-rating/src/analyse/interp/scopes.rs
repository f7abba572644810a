//! The scopes formulas are evaluated in: symbols, #IF, reading points, a
//! game, a player, LIST and the calculation's slots.

use super::*;

/// Symbols only.
pub(super) struct SymScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
}
impl Scope for SymScope<'_, '_> {
    fn get(&self, n: &str) -> Option<Value> {
        self.it.lookup(n)
    }
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
}

/// `#IF`: unknown symbols count as 0.
pub(super) struct IfScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
}
impl Scope for IfScope<'_, '_> {
    fn get(&self, n: &str) -> Option<Value> {
        Some(self.it.lookup(n).unwrap_or(Value::Num(0.0)))
    }
}

/// READPOINTS: N, P.1 … P.n, PN over the columns of one player line.
pub(super) struct ReadScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
    pub(super) pts: &'a [f64],
}
impl Scope for ReadScope<'_, '_> {
    fn get(&self, n: &str) -> Option<Value> {
        match n {
            "N" => Some(Value::Num(self.pts.len() as f64)),
            "PN" => self.pts.last().map(|v| Value::Num(*v)),
            "P" => self.pts.first().map(|v| Value::Num(*v)),
            _ => match indexed(n, "P.") {
                Some(k) => Some(Value::Num(self.pts.get(k).copied().unwrap_or(0.0))),
                None => self.it.lookup(n),
            },
        }
    }
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
}

/// `P.3` → Some(2).
fn indexed(n: &str, prefix: &str) -> Option<usize> {
    n.strip_prefix(prefix)
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| *k >= 1)
        .map(|k| k - 1)
}

/// A game, optionally one of its players.
#[derive(Clone)]
pub(super) struct GameScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
    pub(super) g: &'a Game,
    pub(super) pts: &'a [f64],
    pub(super) entries: &'a [Entry],
    pub(super) st: Stats,
    pub(super) rk: &'a [(usize, usize)],
    pub(super) weight: Option<f64>,
    pub(super) i: Option<usize>,
    pub(super) v: f64,
    pub(super) extra: &'a HashMap<String, Value>,
    pub(super) sel: Option<usize>,
}

impl Scope for GameScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        if let Some(v) = self.extra.get(n) {
            return Some(v.clone());
        }
        if let Some(v) = self.game_fact(n).or_else(|| self.game_var(n)) {
            return Some(v);
        }
        match self.i {
            Some(i) => {
                if let Some(v) = self.entry_var(i, n) {
                    return Some(v);
                }
            }
            None if n == "N" => return Some(Value::Num(self.pts.len() as f64)),
            None => {}
        }
        self.it.lookup(n)
    }
}

impl GameScope<'_, '_> {
    /// What the result table says of the game, and its statistics.
    fn game_fact(&self, n: &str) -> Option<Value> {
        let num = |x: f64| Some(Value::Num(x));
        let g = &self.g.raw;
        let date = g.date;
        match n {
            "DATE" | "GAMEDATE" => num(date.map(|d| d.number()).unwrap_or(0.0)),
            "YEAR" => num(date.map(|d| d.y as f64).unwrap_or(0.0)),
            "MONTH" => num(date.map(|d| d.m as f64).unwrap_or(0.0)),
            "DAY" => num(date.map(|d| d.d as f64).unwrap_or(0.0)),
            "AGE" => num(date.map(|d| (self.it.refdate.days() - d.days()) as f64).unwrap_or(0.0)),
            "FACTOR" => num(g.factor),
            "FIRST" => num(self.st.first),
            "MEAN" => num(self.st.mean),
            "MEDIAN" => num(self.st.median),
            "MIDDLE" => num(self.st.middle),
            "BINOMIAL" => num(self.st.binomial),
            "TITLE" => Some(Value::Str(g.title.clone())),
            "TEXT" => Some(Value::Str(g.text.clone())),
            "NP" => num(self.pts.len() as f64),
            "PN" => num(self.pts.last().copied().unwrap_or(0.0)),
            "SRCFILE" => Some(Value::Str(g.file.clone())),
            "SRCLINE" => num(g.line as f64),
            "SRCDATE" => num(0.0),
            "GAMEID" => num(self
                .it
                .games
                .iter()
                .position(|x| std::ptr::eq(x, self.g))
                .map(|i| i + 1)
                .unwrap_or(0) as f64),
            _ => None,
        }
    }

    /// The game's weight and level, its points by place (P.k, B.k), its
    /// attributes (A$…), scan mode (SM$…) and saved variables.
    fn game_var(&self, n: &str) -> Option<Value> {
        let num = |x: f64| Some(Value::Num(x));
        let np = self.pts.len();
        if n == "WEIGHT" {
            if let Some(w) = self.weight {
                return num(w);
            }
        }
        if let Some(k) = self.sel {
            if let Some(c) = &self.it.calc {
                match n {
                    "GAMELEVEL" => return num(c.gamelevel.get(k).copied().unwrap_or(0.0)),
                    "GAMEGROUP" => return num(c.game_group.get(k).copied().unwrap_or(0) as f64),
                    _ => {}
                }
            }
        }
        if let Some(k) = indexed(n, "P.") {
            return num(self.pts.get(k).copied().unwrap_or(0.0));
        }
        if let Some(k) = indexed(n, "B.") {
            return num(if k < np { binom(np - 1, k) } else { 0.0 });
        }
        // A$x and SM$x are 0 (not unknown) for attributes and scan modes
        // that exist but are not this game's
        if let Some(a) = n.strip_prefix("A$") {
            if self.g.raw.attributes.iter().any(|x| x == a) {
                return num(1.0);
            }
            if self.it.attributes.iter().any(|x| x == a) {
                return num(0.0);
            }
        }
        if let Some(m) = n.strip_prefix("SM$") {
            if self.g.scanmode == m {
                return num(1.0);
            }
            if self.it.scanmodes.contains_key(m) || m == "CSV" {
                return num(0.0);
            }
        }
        self.g.vars.get(n).map(|v| Value::Num(*v))
    }

    /// The `i`th entry of the game (in order of points) and its player.
    fn entry_var(&self, i: usize, n: &str) -> Option<Value> {
        let num = |x: f64| Some(Value::Num(x));
        let np = self.pts.len();
        let e = self.entries[i];
        let p = e.player as usize;
        match n {
            "N" => return num(np as f64),
            "I" => return num(i as f64 + 1.0),
            "J" => return num((np - i) as f64),
            "M" => return num((i + 1).min(np - i) as f64),
            "V" => return num(self.v),
            "R" => return num(self.rk.get(i).map(|r| r.0).unwrap_or(i + 1) as f64),
            "RN" => return num(self.rk.get(i).map(|r| r.1).unwrap_or(1) as f64),
            "P" => return num(self.pts[i]),
            "P0" => return num(e.p0),
            "B" => return num(binom(np - 1, i)),
            "POS" => return num(e.pos as f64),
            "GLEVEL" => {
                if let (Some(k), Some(c)) = (self.sel, &self.it.calc) {
                    let base = self.it.calc_offsets.get(k).copied().unwrap_or(0);
                    let sel = &self.it.sel[k];
                    let idx = sel.entries.iter().position(|x| x.player == e.player).unwrap_or(0);
                    return num(c.glevel.get(base + idx).copied().unwrap_or(0.0));
                }
                return num(0.0);
            }
            "GAMES" => return num(self.it.player_games(p)),
            _ => {}
        }
        self.it.player_common(p, n)
    }
}

/// One player in a player list (PRINTPLAYER, SORTMODE, PSET).
pub(super) struct PlayerScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
    pub(super) p: usize,
    pub(super) i: usize,
    pub(super) r: (usize, usize),
    pub(super) np: usize,
}
impl Scope for PlayerScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        match n {
            "I" => return Some(Value::Num(self.i as f64)),
            "R" => return Some(Value::Num(self.r.0 as f64)),
            "RN" => return Some(Value::Num(self.r.1 as f64)),
            "NP" => return Some(Value::Num(self.np as f64)),
            "N" => return Some(Value::Num(self.it.player_games(self.p))),
            _ => {}
        }
        self.it.player_common(self.p, n).or_else(|| self.it.lookup(n))
    }
}

/// Header and trailer of a player list.
pub(super) struct ListScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
    pub(super) np: usize,
}
impl Scope for ListScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        if n == "NP" {
            return Some(Value::Num(self.np as f64));
        }
        self.it.lookup(n)
    }
}

/// The iteration's formulas when they cannot be compiled.
pub(super) struct SlotScope<'a, 'h> {
    pub(super) it: &'a Interp<'h>,
    pub(super) names: &'a [&'a str],
    pub(super) vals: &'a [f64],
    pub(super) player: Option<usize>,
}
impl Scope for SlotScope<'_, '_> {
    fn rounding(&self) -> Rounding {
        self.it.rounding
    }
    fn get(&self, n: &str) -> Option<Value> {
        if let Some(i) = self.names.iter().position(|x| *x == n) {
            return Some(Value::Num(self.vals[i]));
        }
        if let Some(p) = self.player {
            if let Some(v) = self.it.players[p].vars.get(n) {
                return Some(Value::Num(*v));
            }
            match n {
                "NAME" => return Some(Value::Str(self.it.players[p].name.clone())),
                "ID" => return Some(Value::Str(self.it.players[p].id.clone())),
                _ => {}
            }
        }
        self.it.lookup(n)
    }
}
