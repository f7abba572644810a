//! SCANFILES: reading the result tables into games.

use super::*;
use crate::results::RawPlayer;

impl Interp<'_> {
    pub(super) fn scanfiles(&mut self, at: Option<&LLine>) -> R {
        if !self.commandline_done {
            self.commandline_done = true;
            let args = self.args.clone();
            let l = at.cloned().unwrap_or(LLine {
                file: "<command line>".into(),
                text: String::new(),
                at: Vec::new(),
            });
            self.parameters(&l, &args)?;
        }
        self.init = false;
        let files = self.files.clone();
        for (k, f) in files.into_iter().enumerate() {
            let text = self.host.read(&f).map_err(|e| {
                let (file, line, col) = self.file_at.get(k).cloned().unwrap_or_default();
                Error::new(&file, line, col, format!("cannot read `{f}`: {e}"))
            })?;
            let _ = self.log("INPUTS", &format!("reading {f}"));
            let base = f.rsplit(['/', '\\']).next().unwrap_or(&f).to_string();
            let by_mask = self
                .scanmodes
                .iter()
                .find(|(_, s)| s.masks.iter().any(|m| glob_match(m, &f) || glob_match(m, &base)))
                .map(|(n, _)| n.clone());
            let (mode_name, raw) = if let Some(n) = by_mask {
                let sm = &self.scanmodes[&n];
                let sign = sm.sign.or_else(|| first_sign(&text, &sm.pre)).unwrap_or('=');
                (n.clone(), parse_table(&f, &text, sign, sm.mode, &sm.pre)?)
            } else if base.to_ascii_lowercase().ends_with(".csv") {
                ("CSV".to_string(), parse_csv(&f, &text)?)
            } else {
                let Some(sign) = first_sign(&text, &DataPre::default()) else {
                    continue;
                };
                // every scan mode looks with its own comment characters
                // modes the control file defines come before the predefined ones
                let predefined = |n: &str| n == "DEFAULT" || n == "18XX";
                let matches = |s: &ScanMode| s.sign.is_some() && first_sign(&text, &s.pre) == s.sign;
                let found = self
                    .scanmodes
                    .iter()
                    .find(|(n, s)| !predefined(n) && matches(s))
                    .or_else(|| self.scanmodes.iter().find(|(n, s)| predefined(n) && matches(s)));
                let Some((n, sm)) = found else {
                    let (line, col) = text
                        .lines()
                        .enumerate()
                        .find_map(|(i, l)| l.find(sign).map(|c| (i as u32 + 1, c as u32 + 1)))
                        .unwrap_or((1, 1));
                    return Err(Error::new(&f, line, col, format!("no SCANMODE has the sign `{sign}`; the first character of a result table chooses its scan mode")));
                };
                let sign = sm.sign.unwrap_or(sign);
                (n.clone(), parse_table(&f, &text, sign, sm.mode, &sm.pre)?)
            };
            let sm = self.scanmodes.get(&mode_name).cloned().unwrap_or_default();
            for g in raw {
                self.add_game(g, &mode_name, &sm)?;
            }
        }
        let _ = self.log(
            "SUMMARY",
            &format!("{} games, {} players", self.games.len(), self.players.len()),
        );
        // the evaluation mode starts with all games selected (SELECT DEFAULT)
        self.select("DEFAULT")
    }

    /// A game of a result table: its players' points read with the scan
    /// mode's READPOINTS and TRANSFORMATION, best first.
    fn add_game(&mut self, mut raw: RawGame, mode: &str, sm: &ScanMode) -> R {
        let players = std::mem::take(&mut raw.players);
        let mut entries = Vec::with_capacity(players.len());
        for (pos, p) in players.iter().enumerate() {
            let v = self.read_points(sm, p)?;
            if !v.is_finite() {
                return Err(Error::new(&raw.file, p.line, 1, "READPOINTS gives no finite number"));
            }
            let id = self.player_id(p);
            if entries.iter().any(|e: &Entry| e.player == id) {
                return Err(Error::new(
                    &raw.file,
                    p.line,
                    1,
                    format!("player `{}` appears twice in one game", p.id),
                ));
            }
            entries.push(Entry {
                player: id,
                pos: pos as u32 + 1,
                p0: v,
                p: v,
            });
        }
        for a in &raw.attributes {
            if !self.attributes.contains(a) {
                self.attributes.push(a.clone());
            }
        }
        entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        let mut game = Game {
            raw,
            scanmode: mode.to_string(),
            entries,
            vars: HashMap::new(),
        };
        if !sm.transform.is("P") {
            self.scanmode_transform(sm, &mut game)?;
        }
        if self.logs("GAMES") {
            let _ = self.log(
                "GAMES",
                &format!("{}:{}: {}", game.raw.file, game.raw.line, game.raw.title),
            );
        }
        self.games.push(game);
        Ok(())
    }

    /// A player's points: READPOINTS of the numbers on its line.
    fn read_points(&self, sm: &ScanMode, p: &RawPlayer) -> R<f64> {
        if sm.readpoints.is("P.1") {
            return Ok(p.points[0]);
        }
        let s = ReadScope {
            it: self,
            pts: &p.points,
        };
        Ok(eval(&sm.readpoints.expr, &s).map_err(|e| sm.readpoints.err(e))?.num())
    }

    /// The number of the player with this id, a new one the first time it is
    /// seen; ids are compared without case.
    fn player_id(&mut self, p: &RawPlayer) -> u32 {
        let upper;
        let key: &str = if p.id.chars().any(|c| c.is_lowercase()) {
            upper = p.id.to_uppercase();
            &upper
        } else {
            &p.id
        };
        if let Some(&i) = self.player_ix.get(key) {
            return i;
        }
        let i = self.players.len() as u32;
        self.players.push(Player {
            name: p.name.clone(),
            id: p.id.clone(),
            vars: HashMap::new(),
        });
        self.player_ix.insert(key.to_string(), i);
        i
    }

    /// The scan mode's TRANSFORMATION of a game's points, which then count
    /// as the points read (P0 too).
    fn scanmode_transform(&self, sm: &ScanMode, game: &mut Game) -> R {
        let pts: Vec<f64> = game.entries.iter().map(|e| e.p).collect();
        let st = stats(&pts);
        let rk = ranks(&pts);
        let mut new = Vec::with_capacity(pts.len());
        let empty = HashMap::new();
        for i in 0..pts.len() {
            let s = GameScope {
                it: self,
                g: game,
                pts: &pts,
                entries: &game.entries,
                st,
                rk: &rk,
                weight: None,
                i: Some(i),
                v: 0.0,
                extra: &empty,
                sel: None,
            };
            let v = eval(&sm.transform.expr, &s).map_err(|e| sm.transform.err(e))?.num();
            new.push(v);
        }
        for (e, v) in game.entries.iter_mut().zip(new) {
            e.p = v;
            e.p0 = v;
        }
        game.entries.sort_by(|a, b| b.p.total_cmp(&a.p));
        Ok(())
    }
}
