//! Preprocessor directives: `#IF`, `#DEFINE`, `#INCLUDE`, `#MACRO`, `#CALL`, …

use super::*;

impl Interp<'_> {
    /// A line beginning with `#`. `#IF` … `#ENDIF` are followed even in a
    /// skipped branch (to find its end); the others only when `active`.
    pub(super) fn directive(&mut self, l: &LLine, active: bool) -> R {
        let t = &l.text;
        if t == "#" || t.starts_with("##") || t.starts_with("#!") {
            return Ok(());
        }
        let (word, rest_at) = if let Some(r) = t.strip_prefix("#:") {
            ("CALL".to_string(), t.len() - r.len())
        } else {
            let w: String = t[1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            (w.to_ascii_uppercase(), 1 + w.len())
        };
        let rest = l.tail(rest_at);
        match word.as_str() {
            "IF" | "IFDEF" | "IFNDEF" => self.if_directive(l, &word, &rest, rest_at, active),
            "ELSE" | "ELIF" | "ELSEIF" => self.else_directive(l, &word, &rest),
            "ENDIF" => {
                if self.ifs.pop().is_none() {
                    return Err(err_at(l, 0, "#ENDIF without #IF"));
                }
                Ok(())
            }
            _ if !active => Ok(()),
            "DEFINE" => self.set(&rest, Scope3::Local),
            "GDEFINE" => self.set(&rest, Scope3::Global),
            "PDEFINE" => self.set(&rest, Scope3::Player),
            "INCLUDE" => self.include(l, &rest, rest_at),
            "MACRO" => {
                let name = rest.text.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                if name.is_empty() {
                    return Err(err_at(l, rest_at, "#MACRO needs a name"));
                }
                self.job = Some(JobCollect {
                    name,
                    lines: Vec::new(),
                    start: (l.file.clone(), l.first_line()),
                    is_macro: true,
                });
                Ok(())
            }
            "ENDMACRO" => Err(err_at(l, 0, "#ENDMACRO without #MACRO")),
            "CALL" => self.call_job(&rest),
            "SETCOMMENT" => self.set_comment(l, &rest, rest_at),
            _ => Err(err_at(l, 0, format!("unknown preprocessor command `#{word}`"))),
        }
    }

    /// `#IF formula`, `#IFDEF name`, `#IFNDEF name`: opens a branch, taken
    /// only when the enclosing one is.
    fn if_directive(&mut self, l: &LLine, word: &str, rest: &LLine, rest_at: usize, active: bool) -> R {
        let v = if active {
            if rest.text.is_empty() {
                return Err(err_at(l, rest_at, "#IF needs a condition"));
            }
            match word {
                "IF" => {
                    let f = Formula::parse(rest)?;
                    let s = IfScope { it: self };
                    eval(&f.expr, &s).map_err(|e| f.err(e))?.num() != 0.0
                }
                w => {
                    let d = self.lookup(&rest.text.to_ascii_uppercase()).is_some();
                    if w == "IFDEF" {
                        d
                    } else {
                        !d
                    }
                }
            }
        } else {
            false
        };
        // (taken, a later branch may still be taken, after #ELSE)
        self.ifs.push((active && v, active && !v, false));
        Ok(())
    }

    /// `#ELSE` and `#ELIF formula`: the next branch of the innermost `#IF`.
    fn else_directive(&mut self, l: &LLine, word: &str, rest: &LLine) -> R {
        let parent = self.ifs.len() < 2 || self.ifs[..self.ifs.len() - 1].iter().all(|x| x.0);
        let Some(top) = self.ifs.last().copied() else {
            return Err(err_at(l, 0, format!("#{word} without #IF")));
        };
        if top.2 {
            return Err(err_at(l, 0, format!("#{word} after #ELSE")));
        }
        let take = if word == "ELSE" {
            top.1
        } else if parent && top.1 {
            let f = Formula::parse(rest)?;
            let s = IfScope { it: self };
            eval(&f.expr, &s).map_err(|e| f.err(e))?.num() != 0.0
        } else {
            false
        };
        let last = self.ifs.last_mut().expect("if");
        *last = (parent && take, top.1 && !take, word == "ELSE");
        Ok(())
    }

    /// `#INCLUDE file`: runs another file's lines here.
    fn include(&mut self, l: &LLine, rest: &LLine, rest_at: usize) -> R {
        let name = unquote(&rest.text);
        if name.is_empty() {
            return Err(err_at(l, rest_at, "#INCLUDE needs a file name"));
        }
        // An included file stays beside the control file: no
        // absolute path, no `..` (a control file from elsewhere
        // reads nothing else on the machine).
        if name.starts_with(['/', '\\']) || name.contains(':') || name.split(['/', '\\']).any(|p| p == "..") {
            return Err(err_at(
                l,
                rest_at,
                format!("#INCLUDE `{name}`: the file must be in the control file's folder or below it (no absolute path, no `..`)"),
            ));
        }
        let path = relative(&l.file, &name);
        let text = self
            .host
            .read(&path)
            .map_err(|e| err_at(rest, 0, format!("cannot read `{path}`: {e}")))?;
        let f: Rc<str> = path.as_str().into();
        let lines: Vec<SrcLine> = text
            .lines()
            .enumerate()
            .map(|(i, t)| SrcLine {
                file: f.clone(),
                line: i as u32 + 1,
                text: t.to_string(),
            })
            .collect();
        self.run_lines(&lines)
    }

    /// `#SETCOMMENT begin end to-end-of-line [tie]`: the comment marks
    /// (at most two characters each).
    fn set_comment(&mut self, l: &LLine, rest: &LLine, rest_at: usize) -> R {
        let w: Vec<String> = rest.text.split_whitespace().map(unquote).collect();
        if w.len() < 3 {
            return Err(err_at(
                l,
                rest_at,
                "#SETCOMMENT needs three strings: begin, end, to end of line",
            ));
        }
        let two = |s: &str| s.chars().take(2).collect::<String>();
        self.cc.open = two(&w[0]);
        self.cc.close = two(&w[1]);
        self.cc.eol = two(&w[2]);
        if let Some(t) = w.get(3) {
            self.cc.tie = two(t);
        }
        Ok(())
    }
}
