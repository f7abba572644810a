//! Jobs and macros: JOB / CALL and their parameters.

use super::*;

impl Interp<'_> {
    pub(super) fn parameters(&mut self, l: &LLine, args: &[String]) -> R {
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            i += 1;
            let mut cs = a.chars();
            let first = cs.next().unwrap_or(' ');
            if a.len() >= 2 && "-+/".contains(first) {
                let Some(opt) = cs.next() else { continue };
                let Some(&kind) = self.options.get(&opt) else {
                    return Err(err_at(
                        l,
                        0,
                        format!("unknown option `{a}` (define it with DEFINE OPTIONS)"),
                    ));
                };
                let mut param: String = cs.collect();
                let value = match kind {
                    OptKind::Void => Value::Num(1.0),
                    _ => {
                        if param.is_empty() && i < args.len() {
                            param = args[i].clone();
                            i += 1;
                        }
                        match kind {
                            OptKind::Char if param.chars().count() == 1 => Value::Str(param),
                            OptKind::Text => Value::Str(param),
                            OptKind::Int => match param.parse::<i64>() {
                                Ok(v) => Value::Num(v as f64),
                                Err(_) => return Err(err_at(l, 0, format!("option `{a}` needs an integer"))),
                            },
                            OptKind::Float => match param.parse::<f64>() {
                                Ok(v) => Value::Num(v),
                                Err(_) => return Err(err_at(l, 0, format!("option `{a}` needs a number"))),
                            },
                            _ => return Err(err_at(l, 0, format!("option `{a}` needs exactly one character"))),
                        }
                    }
                };
                if opt == 'l' {
                    self.log_level = value.num().clamp(0.0, 9.0) as u8;
                }
                let sym = opt_symbol(opt);
                self.globals.insert(format!("OPT${sym}"), Value::Num(1.0));
                self.globals.insert(format!("PARM${sym}"), value);
            } else {
                let k = l.text.find(a.as_str()).unwrap_or(0);
                let found = self.host.expand(a);
                if found.is_empty() {
                    return Err(err_at(l, k, format!("no file matches `{a}`")));
                }
                let (line, col) = l.pos(k);
                for f in found {
                    self.file_at.push((l.file.to_string(), line, col));
                    self.files.push(f);
                }
            }
        }
        Ok(())
    }

    pub(super) fn call_job(&mut self, rest: &LLine) -> R {
        let mut t = rest.text.as_str();
        let mut optional = false;
        if let Some(r) = t.strip_prefix('?') {
            optional = true;
            t = r.trim_start();
        }
        let off = rest.text.len() - t.len();
        let end = t.find(['(', ' ']).unwrap_or(t.len());
        let name = t[..end].trim().to_ascii_uppercase();
        if name.is_empty() {
            return Err(err_at(rest, off, "expected the name of a job"));
        }
        let Some(lines) = self.jobs.get(&name).cloned() else {
            if optional {
                return Ok(());
            }
            return Err(err_at(rest, off, format!("no job or macro named {name}")));
        };
        let mut args: Vec<String> = Vec::new();
        let after = t[end..].trim_start();
        let aoff = off + (t.len() - after.len());
        if let Some(inner) = after.strip_prefix('(') {
            let close = find_top(&rest.text, aoff + 1, b')');
            if close >= rest.text.len() {
                return Err(err_at(rest, aoff, "`(` is not closed by `)`"));
            }
            if !rest.text[close + 1..].trim().is_empty() {
                return Err(err_at(rest, close + 1, "unexpected text after the parameters"));
            }
            if !inner.trim_start().starts_with(')') {
                let mut a = aoff + 1;
                loop {
                    let e = find_top(&rest.text[..close], a, b',');
                    let sub = LLine {
                        file: rest.file.clone(),
                        text: rest.text[a..e].to_string(),
                        at: rest.at[a..e].to_vec(),
                    }
                    .tail(0);
                    if sub.text.is_empty() {
                        return Err(err_at(rest, a, "empty job parameter"));
                    }
                    args.push(sub.text.clone());
                    if e >= close {
                        break;
                    }
                    a = e + 1;
                }
            }
        } else if !after.is_empty() {
            return Err(err_at(rest, aoff, "expected `(` and the job's parameters"));
        }
        if args.len() > 20 {
            return Err(err_at(rest, aoff, "a job takes at most 20 parameters"));
        }
        let mut frame = HashMap::new();
        for i in 1..=20 {
            let v = match args.get(i - 1) {
                None => Value::None,
                Some(a) => match a.parse::<f64>() {
                    Ok(x) => Value::Num(x),
                    Err(_) => Value::Str(unquote(a)),
                },
            };
            frame.insert(format!("${i}"), v);
        }
        // parameters are also replaced in the job's text, so that commands
        // taking names (SELECT $1) work
        let lines: Vec<SrcLine> = lines
            .iter()
            .map(|l| SrcLine {
                file: l.file.clone(),
                line: l.line,
                text: substitute(&l.text, &args),
            })
            .collect();
        frame.insert("$N".into(), Value::Num(args.len() as f64));
        self.frames.push(frame);
        let saved_ifs = std::mem::take(&mut self.ifs);
        let r = self.run_lines(&lines);
        let open_if = !self.ifs.is_empty();
        self.ifs = saved_ifs;
        self.frames.pop();
        r?;
        if open_if {
            return Err(err_at(rest, off, format!("job {name} leaves an #IF open")));
        }
        Ok(())
    }
}
