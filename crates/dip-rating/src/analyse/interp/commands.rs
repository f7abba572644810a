//! Commands of the initialisation and evaluation modes: the dispatch, output
//! channels, logging and LIST.

use super::*;

impl Interp<'_> {
    pub(super) fn line(&mut self, l: &LLine) -> R {
        if self.block.is_some() {
            return self.block_line(l);
        }
        let (word, k) = first_word(&l.text);
        let rest = l.tail(k);
        match word.as_str() {
            "DEFINE" => self.define(l, &rest),
            "JOB" => self.call_job(&rest),
            "SET" => self.set(&rest, Scope3::Local),
            "GSET" => self.set(&rest, Scope3::Global),
            "PSET" => self.set(&rest, Scope3::Player),
            "COMMANDLINE" => {
                self.need_init(l, "COMMANDLINE")?;
                let args = self.args.clone();
                self.commandline_done = true;
                self.parameters(l, &args)
            }
            "PARAMETER" => {
                self.need_init(l, "PARAMETER")?;
                let args = split_args(&rest.text);
                self.parameters(&rest, &args)
            }
            "SCANFILES" => {
                self.need_init(l, "SCANFILES")?;
                self.scanfiles(Some(l))
            }
            "OUTPUT" | "ERRORLOG" | "PRINTFILE" => self.channel(&word, &rest),
            "ECHO" => {
                let v = self.string_expr(&rest)?;
                let target = self.printfile.clone().unwrap_or_else(|| self.output.clone());
                self.write(&target, &format!("{v}\n"))
            }
            "MESSAGE" => {
                let v = self.string_expr(&rest)?;
                self.log("INFORMATIONS", &v)
            }
            "TIMESTAMP" => self.timestamp(),
            "LOGGING" => self.logging(&rest),
            "ROUNDING" => self.set_rounding(&rest),
            "TABSIZE" => self.set_tabsize(&rest),
            "DATE" | "REFDATE" => self.set_refdate(&rest),
            "LIST" => self.list(&rest),
            "SYSTEM" => self.system(l, &rest),
            "SELECT" | "RESELECT" | "TRANSFORMATION" | "PLAYERLEVEL" | "GAMELEVEL" | "ITERATE" | "ITERATION"
            | "CALCULATE" | "PRINTGAMES" | "PRINT" | "PRINTPLAYERS" | "SORT" | "CLEARVARS" | "SAVEPLAYERS"
            | "TRANSFER" | "SAVEGAMES" => {
                if self.init {
                    self.scanfiles(Some(l))?;
                }
                self.eval_command(&word, l, &rest)
            }
            "END" => Err(err_at(l, 0, "END without DEFINE")),
            "" => Err(err_at(l, 0, "expected a command")),
            // Analyse's manual: lines that are no command are text lines,
            // copied to the output file. A first word in capitals is taken
            // for a misspelt command and reported.
            _ if is_text_line(&l.text) => {
                let o = self.output.clone();
                self.write(&o, &format!("{}\n", l.text))
            }
            _ => Err(err_at(
                l,
                0,
                format!("unknown command `{}`", &l.text[..k.min(l.text.len())].trim()),
            )),
        }
    }

    /// TIMESTAMP: the time on the output and the error log.
    fn timestamp(&mut self) -> R {
        let now = self.host.now();
        let out = self.output.clone();
        self.write(&out, &format!("{now}\n"))?;
        if let Some(e) = self.errorlog.clone() {
            self.write(&e, &format!("{now}\n"))?;
        }
        Ok(())
    }

    /// ROUNDING NEAREST|ZERO|UP|DOWN: how printed numbers are rounded.
    fn set_rounding(&mut self, rest: &LLine) -> R {
        self.rounding = match rest.text.to_ascii_uppercase().as_str() {
            "" | "NEAREST" => Rounding::Nearest,
            "ZERO" => Rounding::Zero,
            "UP" => Rounding::Up,
            "DOWN" => Rounding::Down,
            _ => return Err(err_at(rest, 0, "expected NEAREST, ZERO, UP or DOWN")),
        };
        Ok(())
    }

    /// TABSIZE n: runs of spaces in the output become tabs (0: never).
    fn set_tabsize(&mut self, rest: &LLine) -> R {
        let v = self.num_expr(rest)?;
        if !(0.0..=64.0).contains(&v) {
            return Err(err_at(rest, 0, "TABSIZE must be between 0 and 64"));
        }
        self.tabsize = v as usize;
        Ok(())
    }

    /// DATE / REFDATE: the reference date (today when none is given), as a
    /// date or a formula giving yyyymmdd.
    fn set_refdate(&mut self, rest: &LLine) -> R {
        let t = unquote(&rest.text);
        self.refdate = if t.is_empty() {
            self.host.today()
        } else if let Some(d) = Date::parse(&t) {
            d
        } else {
            let v = self.num_expr(rest)?;
            Date::parse(&format!("{}", v as i64))
                .ok_or_else(|| err_at(rest, 0, "expected a date: yyyy-mm-dd, dd.mm.yyyy or yyyymmdd"))?
        };
        Ok(())
    }

    /// SYSTEM command: runs a program, only when the command line allows it;
    /// its exit status goes to SYSTEM$STATUS.
    fn system(&mut self, l: &LLine, rest: &LLine) -> R {
        let cmd = self.string_expr(rest)?;
        if !self.allow_system {
            return Err(err_at(
                l,
                0,
                "SYSTEM is not allowed; allow it on the command line (--allow-system)",
            ));
        }
        let st = self
            .host
            .system(&cmd)
            .map_err(|e| err_at(rest, 0, format!("cannot run `{cmd}`: {e}")))?;
        self.globals.insert("SYSTEM$STATUS".into(), Value::Num(st as f64));
        Ok(())
    }

    pub(super) fn need_init(&self, l: &LLine, what: &str) -> R {
        if !self.init {
            return Err(err_at(
                l,
                0,
                format!("{what} is only possible in the initialisation mode (before SCANFILES)"),
            ));
        }
        Ok(())
    }

    fn string_expr(&self, l: &LLine) -> R<String> {
        if l.text.is_empty() {
            return Ok(String::new());
        }
        let f = Formula::parse(l)?;
        let s = SymScope { it: self };
        Ok(eval(&f.expr, &s).map_err(|e| f.err(e))?.text())
    }

    fn num_expr(&self, l: &LLine) -> R<f64> {
        if l.text.is_empty() {
            return Err(err_at(l, 0, "expected a number"));
        }
        let f = Formula::parse(l)?;
        let s = SymScope { it: self };
        Ok(eval(&f.expr, &s).map_err(|e| f.err(e))?.num())
    }

    fn channel(&mut self, word: &str, rest: &LLine) -> R {
        let mut t = rest.text.as_str();
        let mut title = true;
        let mut append = false;
        loop {
            t = t.trim_start();
            if let Some(r) = t.strip_prefix('/').filter(|_| word == "PRINTFILE") {
                title = false;
                t = r;
            } else if let Some(r) = t.strip_prefix('+') {
                append = true;
                t = r;
            } else {
                break;
            }
        }
        let name = unquote(t);
        if name.is_empty() {
            return Err(err_at(rest, rest.text.len(), format!("{word} needs a file name")));
        }
        let name = if name == "-" { String::new() } else { name };
        if !append && !name.is_empty() {
            self.host
                .write(&name, false, "")
                .map_err(|e| err_at(rest, 0, format!("cannot write `{name}`: {e}")))?;
        }
        match word {
            "OUTPUT" => self.output = name,
            "ERRORLOG" => self.errorlog = Some(name),
            _ => {
                if title {
                    self.write(&name, "dip rate: Analyse control language\n")?;
                }
                self.printfile = Some(name);
            }
        }
        Ok(())
    }

    pub(super) fn write(&mut self, target: &str, text: &str) -> R {
        let text = if self.tabsize > 0 {
            tabify(text, self.tabsize)
        } else {
            text.to_string()
        };
        self.host
            .write(target, true, &text)
            .map_err(|e| Error::plain(format!("cannot write `{target}`: {e}")))
    }

    /// Whether a message of this category goes anywhere.
    pub(super) fn logs(&self, cat: &str) -> bool {
        if self.errorlog.is_some() {
            return true;
        }
        let lvl = LOG_CATS.iter().find(|c| c.0 == cat).map(|c| c.1).unwrap_or(9);
        match &self.log_set {
            Some(set) => set.contains(&cat),
            None => lvl <= self.log_level,
        }
    }

    pub(super) fn log(&mut self, cat: &str, msg: &str) -> R {
        if let Some(e) = self.errorlog.clone() {
            self.write(&e, &format!("{msg}\n"))?;
        }
        let lvl = LOG_CATS.iter().find(|c| c.0 == cat).map(|c| c.1).unwrap_or(9);
        let show = match &self.log_set {
            Some(set) => set.contains(&cat),
            None => lvl <= self.log_level,
        };
        if show {
            self.host.stderr(&format!("{msg}\n"));
        }
        Ok(())
    }

    fn logging(&mut self, rest: &LLine) -> R {
        let mut set: Vec<&'static str> = Vec::new();
        let mut level: Option<u8> = None;
        for (k, w) in words(&rest.text) {
            let u = w.to_ascii_uppercase();
            let u = u.trim_start_matches('+');
            if let Some(n) = u
                .strip_prefix("LEVEL")
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| *n <= 9)
            {
                level = Some(level.unwrap_or(0).max(n));
            } else if u == "NONE" {
                level = Some(0);
            } else if u == "ALL" {
                level = Some(9);
            } else if let Some(c) = LOG_CATS
                .iter()
                .find(|c| c.0 == u || (u.len() >= 4 && c.0.starts_with(u)))
            {
                set.push(c.0);
            } else {
                return Err(err_at(rest, k, format!("unknown logging setting `{w}`")));
            }
        }
        if let Some(lv) = level {
            self.log_level = lv;
            for c in LOG_CATS.iter().filter(|c| c.1 <= lv) {
                set.push(c.0);
            }
        }
        self.log_set = Some(set);
        Ok(())
    }

    /// Every option, given or not, has its two symbols (Analyse's manual):
    /// both are empty until the option is given (`OPT$x` then 1). An empty
    /// `OPT$x` is false in `#IF`, as 0 was.
    pub(super) fn declare_option(&mut self, c: char) {
        let sym = opt_symbol(c);
        self.globals
            .entry(format!("OPT${sym}"))
            .or_insert(Value::Str(String::new()));
        self.globals
            .entry(format!("PARM${sym}"))
            .or_insert(Value::Str(String::new()));
    }

    pub(super) fn list(&mut self, rest: &LLine) -> R {
        let mut out = String::new();
        let ws = words(&rest.text);
        if ws.is_empty() {
            return Err(err_at(rest, 0, "LIST needs an object type"));
        }
        for (k, w) in ws {
            let u = w.to_ascii_uppercase();
            let all = u == "ALL";
            let mut hit = all;
            let names = |title: &str, keys: Vec<String>, out: &mut String| {
                let _ = writeln!(out, "{title}: {}", keys.join(", "));
            };
            use std::fmt::Write as _;
            if all || u == "JOBS" {
                names("JOBS", self.jobs.keys().cloned().collect(), &mut out);
                hit = true;
            }
            if all || u == "LOCALS" {
                let mut v: Vec<String> = self
                    .frames
                    .iter()
                    .flat_map(|f| f.iter().map(|(k, v)| format!("{k}={}", v.text())))
                    .collect();
                v.sort();
                names("LOCALS", v, &mut out);
                hit = true;
            }
            if all || u == "GLOBALS" {
                let mut v: Vec<String> = self.globals.iter().map(|(k, v)| format!("{k}={}", v.text())).collect();
                v.sort();
                names("GLOBALS", v, &mut out);
                hit = true;
            }
            if all || u == "SCANMODES" {
                names("SCANMODES", self.scanmodes.keys().cloned().collect(), &mut out);
                hit = true;
            }
            if all || u == "FILEMASKS" {
                let v = self
                    .scanmodes
                    .iter()
                    .flat_map(|(n, s)| s.masks.iter().map(move |m| format!("{m} -> {n}")))
                    .collect();
                names("FILEMASKS", v, &mut out);
                hit = true;
            }
            if all || u == "PLAYER" || u == "PLAYERS" {
                let _ = writeln!(out, "PLAYERS: {}", self.players.len());
                for p in &self.players {
                    let _ = writeln!(out, "  {} [{}]", p.name, p.id);
                }
                hit = true;
            }
            if all || u == "ATTRIBUTES" {
                names("ATTRIBUTES", self.attributes.clone(), &mut out);
                hit = true;
            }
            for (kw, keys) in [
                ("SELECTIONS", self.selections.keys().cloned().collect::<Vec<_>>()),
                ("TRANSFORMATIONS", self.transformations.keys().cloned().collect()),
                ("PLAYERLEVELS", self.playerlevels.keys().cloned().collect()),
                ("GAMELEVELS", self.gamelevels.keys().cloned().collect()),
                ("ITERATIONS", self.iterations.keys().cloned().collect()),
                ("PRINTGAMES", self.printgames.keys().cloned().collect()),
                ("PRINTPLAYERS", self.printplayers.keys().cloned().collect()),
                ("SORTMODES", self.sortmodes.keys().cloned().collect()),
            ] {
                if all || u == kw {
                    names(kw, keys, &mut out);
                    hit = true;
                }
            }
            if all || u == "GAME" || u == "GAMES" {
                let _ = writeln!(out, "GAMES: {}", self.games.len());
                for (i, g) in self.games.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "  {:>4} {}:{} {} ({} players)",
                        i + 1,
                        g.raw.file,
                        g.raw.line,
                        g.raw.title,
                        g.entries.len()
                    );
                }
                hit = true;
            }
            if !hit {
                return Err(err_at(rest, k, format!("unknown object type `{w}` for LIST")));
            }
        }
        let o = self.output.clone();
        self.write(&o, &out)
    }
}
