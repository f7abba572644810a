//! `DEFINE … END`: the objects (scan modes, selections, transformations,
//! levels, iterations, sort modes, print definitions) and their lines.

use super::*;

impl Interp<'_> {
    pub(super) fn define(&mut self, l: &LLine, rest: &LLine) -> R {
        let ws = words(&rest.text);
        let Some(&(_, kind)) = ws.first() else {
            return Err(err_at(l, l.text.len(), "DEFINE needs an object type"));
        };
        let kind_u = kind.to_ascii_uppercase();
        let name = ws.get(1).map(|w| w.1.to_ascii_uppercase());
        let need_name = |what: &str| -> R<String> {
            name.clone()
                .ok_or_else(|| err_at(rest, rest.text.len(), format!("DEFINE {what} needs a name")))
        };
        let kind = match kind_u.as_str() {
            "OPTIONS" => BlockKind::Options,
            "SCANMODE" => {
                self.need_init(l, "DEFINE SCANMODE")?;
                let n = need_name("SCANMODE")?;
                let sm = self.scanmodes.entry(n.clone()).or_default();
                for &(_, m) in &ws[2..] {
                    sm.masks.push(unquote(m));
                }
                self.block = Some(Block {
                    kind: BlockKind::ScanMode,
                    name: n,
                    start: l.clone(),
                });
                return Ok(());
            }
            "SELECTION" => BlockKind::Selection,
            "TRANSFORMATION" => BlockKind::Transformation,
            "PLAYERLEVEL" => BlockKind::PlayerLevel,
            "GAMELEVEL" => BlockKind::GameLevel,
            "ITERATION" => BlockKind::Iteration,
            "SORTMODE" => BlockKind::SortMode,
            "PRINTGAME" => BlockKind::PrintGame,
            "PRINTPLAYER" => BlockKind::PrintPlayer,
            "JOB" | "MACRO" => {
                let n = need_name("JOB")?;
                self.job = Some(JobCollect {
                    name: n,
                    lines: Vec::new(),
                    start: (l.file.clone(), l.first_line()),
                    is_macro: false,
                });
                return Ok(());
            }
            _ => return Err(err_at(rest, 0, format!("unknown object type `{kind}`"))),
        };
        let n = if kind == BlockKind::Options {
            String::new()
        } else {
            need_name(&kind_u)?
        };
        if ws.len() > 2 {
            return Err(err_at(rest, ws[2].0, "unexpected text after the name"));
        }
        match kind {
            BlockKind::Selection => {
                self.selections
                    .entry(n.clone())
                    .or_insert_with(|| Formula::builtin("1.0"));
            }
            BlockKind::Transformation => {
                self.transformations.entry(n.clone()).or_default();
            }
            BlockKind::PlayerLevel => {
                self.playerlevels
                    .entry(n.clone())
                    .or_insert_with(|| Formula::builtin("SUM/WSUM"));
            }
            BlockKind::GameLevel => {
                self.gamelevels
                    .entry(n.clone())
                    .or_insert_with(|| Formula::builtin("WEIGHT * P * (SUMLEVEL-LEVEL) / (N-1)"));
            }
            BlockKind::Iteration => {
                self.iterations.entry(n.clone()).or_insert((None, None, None));
            }
            BlockKind::SortMode => {
                self.sortmodes.entry(n.clone()).or_default();
            }
            BlockKind::PrintGame => {
                self.printgames.entry(n.clone()).or_default();
            }
            BlockKind::PrintPlayer => {
                self.printplayers.entry(n.clone()).or_default();
            }
            _ => {}
        }
        let _ = self.log("DEFINITIONS", &format!("DEFINE {kind_u} {n}"));
        self.block = Some(Block {
            kind,
            name: n,
            start: l.clone(),
        });
        Ok(())
    }

    /// A line inside `DEFINE … END`: END closes the block, any other line
    /// goes to the reader of the block's object type.
    pub(super) fn block_line(&mut self, l: &LLine) -> R {
        let (word, k) = first_word(&l.text);
        let rest = l.tail(k);
        let b = self.block.as_ref().expect("block");
        let (kind, name) = (b.kind, b.name.clone());
        if word == "END" {
            if !rest.text.is_empty() {
                return Err(err_at(&rest, 0, "unexpected text after END"));
            }
            self.block = None;
            return Ok(());
        }
        let bl = BlockLine {
            l,
            word: &word,
            rest: &rest,
        };
        match kind {
            BlockKind::Options => self.options_line(&bl),
            BlockKind::ScanMode => self.scanmode_line(&bl, &name),
            BlockKind::Selection => self.selection_line(&bl, name),
            BlockKind::Transformation => self.transformation_line(&bl, &name),
            BlockKind::PlayerLevel | BlockKind::GameLevel => self.level_line(&bl, kind, name),
            BlockKind::Iteration => self.iteration_line(&bl, &name),
            BlockKind::SortMode => self.sortmode_line(&bl, &name),
            BlockKind::PrintGame | BlockKind::PrintPlayer => self.print_line(&bl, kind, &name),
        }
    }

    /// `DEFINE OPTIONS`: `VOID|CHARACTER|TEXT|INTEGER|FLOATINGPOINT letters`.
    fn options_line(&mut self, bl: &BlockLine) -> R {
        let kind = match bl.word {
            "VOID" => OptKind::Void,
            "CHARACTER" => OptKind::Char,
            "TEXT" => OptKind::Text,
            "INTEGER" => OptKind::Int,
            "FLOATINGPOINT" => OptKind::Float,
            _ => return bl.not_here(),
        };
        for (k, w) in words(&bl.rest.text) {
            for c in w.chars() {
                if !c.is_ascii_alphanumeric() {
                    return Err(err_at(bl.rest, k, format!("an option is a letter or digit, not `{c}`")));
                }
                self.options.insert(c, kind);
                self.declare_option(c);
            }
        }
        Ok(())
    }

    /// `DEFINE SCANMODE`: how result tables are read.
    fn scanmode_line(&mut self, bl: &BlockLine, name: &str) -> R {
        let rest = bl.rest;
        let sm = self.scanmodes.get_mut(name).expect("scanmode");
        match bl.word {
            "MODE" => {
                sm.mode = match rest.text.to_ascii_uppercase().as_str() {
                    "18XX" => Mode::Multi,
                    "RANGLIST" => Mode::Ranglist,
                    _ => return Err(err_at(rest, 0, "expected MODE 18XX or MODE RANGLIST")),
                }
            }
            "PREOFF" => sm.pre.off = true,
            "PRECHAR" => sm.pre.prechar = one_char(rest, "PRECHAR")?,
            "PRECOMMENT" => {
                let w: Vec<String> = rest.text.split_whitespace().map(unquote).collect();
                if w.len() != 3 {
                    return Err(err_at(rest, 0, "PRECOMMENT needs three strings"));
                }
                // Analyse's comment marks are at most two characters
                let two = |s: &str| s.chars().take(2).collect::<String>();
                sm.pre.open = two(&w[0]);
                sm.pre.close = two(&w[1]);
                sm.pre.eol = two(&w[2]);
            }
            "PRETIE" => sm.pre.tie = unquote(&rest.text).chars().take(2).collect(),
            "READPOINTS" => sm.readpoints = bl.formula("READPOINTS")?,
            "TRANSFORMATION" => sm.transform = bl.formula("TRANSFORMATION")?,
            "SIGN" => sm.sign = Some(one_char(rest, "SIGN")?),
            _ => return bl.not_here(),
        }
        Ok(())
    }

    /// `DEFINE SELECTION`: `SELECT formula`.
    fn selection_line(&mut self, bl: &BlockLine, name: String) -> R {
        match bl.word {
            "SELECT" => {
                let f = bl.formula("SELECT")?;
                self.selections.insert(name, f);
                Ok(())
            }
            _ => bl.not_here(),
        }
    }

    /// `DEFINE TRANSFORMATION`: `VARIABLE …` and `TRANSFORM formula`.
    fn transformation_line(&mut self, bl: &BlockLine, name: &str) -> R {
        match bl.word {
            "VARIABLE" => {
                let v = self.vardef(bl.rest)?;
                self.transformations.get_mut(name).expect("t").vars.push(v);
            }
            "TRANSFORM" => {
                let f = bl.formula("TRANSFORM")?;
                self.transformations.get_mut(name).expect("t").transform = f;
            }
            _ => return bl.not_here(),
        }
        Ok(())
    }

    /// `DEFINE PLAYERLEVEL` and `DEFINE GAMELEVEL`: `CALCULATE formula`.
    fn level_line(&mut self, bl: &BlockLine, kind: BlockKind, name: String) -> R {
        match bl.word {
            "CALCULATE" => {
                let f = bl.formula("CALCULATE")?;
                if kind == BlockKind::PlayerLevel {
                    self.playerlevels.insert(name, f);
                } else {
                    self.gamelevels.insert(name, f);
                }
                Ok(())
            }
            _ => bl.not_here(),
        }
    }

    /// `DEFINE ITERATION`: `MINIMUM|MAXIMUM|EPSILON formula`.
    fn iteration_line(&mut self, bl: &BlockLine, name: &str) -> R {
        // the formula is read first: a word without one says it needs one
        let f = bl.formula(bl.word)?;
        let it = self.iterations.get_mut(name).expect("it");
        match bl.word {
            "MINIMUM" => it.0 = Some(f),
            "MAXIMUM" => it.1 = Some(f),
            "EPSILON" => it.2 = Some(f),
            _ => return bl.not_here(),
        }
        Ok(())
    }

    /// `DEFINE SORTMODE`: `SORT formula` and `REVERS [formula]`.
    fn sortmode_line(&mut self, bl: &BlockLine, name: &str) -> R {
        let rest = bl.rest;
        let sm = self.sortmodes.get_mut(name).expect("sm");
        match bl.word {
            "SORT" => sm.sort = bl.formula("SORT")?,
            "REVERS" | "REVERSE" => {
                sm.revers = if rest.text.is_empty() {
                    true
                } else {
                    let f = Formula::parse(rest)?;
                    let s = SymScope { it: self };
                    let v = eval(&f.expr, &s).map_err(|e| f.err(e))?.num() > 0.0;
                    self.sortmodes.get_mut(name).expect("sm").revers = v;
                    return Ok(());
                }
            }
            _ => return bl.not_here(),
        }
        Ok(())
    }

    /// `DEFINE PRINTGAME` and `DEFINE PRINTPLAYER`: the output file, order,
    /// formulas and text lines of a print.
    fn print_line(&mut self, bl: &BlockLine, kind: BlockKind, name: &str) -> R {
        let (l, rest) = (bl.l, bl.rest);
        let map = if kind == BlockKind::PrintGame {
            &mut self.printgames
        } else {
            &mut self.printplayers
        };
        let pd = map.get_mut(name).expect("pd");
        match bl.word {
            "FILENAME" => {
                let f = unquote(&rest.text);
                if f.is_empty() {
                    return Err(err_at(l, l.text.len(), "FILENAME needs a file name"));
                }
                pd.filename = Some(f);
                pd.append = false;
            }
            "OVERWRITE" => pd.append = false,
            "APPEND" => pd.append = true,
            "SORT" => pd.sort = true,
            "UNSORT" => pd.sort = false,
            "HEADER" => pd.header = bl.formula("HEADER")?,
            "PLAYER" => pd.player = bl.formula("PLAYER")?,
            "TRAILOR" | "TRAILER" => pd.trailer = bl.formula("TRAILOR")?,
            // A text line of the print: copied with it, after the header.
            _ if is_text_line(&l.text) => pd.text.push(l.text.clone()),
            _ => return bl.not_here(),
        }
        Ok(())
    }

    /// `VARIABLE name [range] := formula`.
    fn vardef(&self, l: &LLine) -> R<VarDef> {
        let t = &l.text;
        let end = t
            .find(|c: char| !(c.is_alphanumeric() || "$_.".contains(c)))
            .unwrap_or(t.len());
        if end == 0 {
            return Err(err_at(l, 0, "VARIABLE needs a name"));
        }
        let name = t[..end].to_ascii_uppercase();
        let mut k = end;
        let skip = |k: &mut usize| {
            while t.as_bytes().get(*k) == Some(&b' ') {
                *k += 1;
            }
        };
        skip(&mut k);
        let mut range = Range::None;
        if t.as_bytes().get(k) == Some(&b'[') {
            let close = find_top(t, k + 1, b']');
            if close >= t.len() {
                return Err(err_at(l, k, "`[` is not closed by `]`"));
            }
            let inner_start = k + 1;
            let inner = &t[inner_start..close];
            let part = |a: usize, b: usize| -> R<Option<Formula>> {
                let sub = LLine {
                    file: l.file.clone(),
                    text: t[a..b].to_string(),
                    at: l.at[a..b].to_vec(),
                }
                .tail(0);
                let s = sub.text.trim();
                if s.is_empty() || s == "*" {
                    Ok(None)
                } else {
                    Ok(Some(Formula::parse(&sub)?))
                }
            };
            range = match inner.find(':') {
                None => {
                    if inner.trim().is_empty() {
                        Range::Span(Box::new((None, None)))
                    } else {
                        let f = part(inner_start, close)?;
                        Range::Span(Box::new((f.clone(), f)))
                    }
                }
                Some(c) => Range::Span(Box::new((
                    part(inner_start, inner_start + c)?,
                    part(inner_start + c + 1, close)?,
                ))),
            };
            k = close + 1;
            skip(&mut k);
        }
        if t[k..].starts_with(":=") {
            k += 2;
        } else if t[k..].starts_with('=') || t[k..].starts_with(':') {
            k += 1;
        }
        let f = l.tail(k);
        if f.text.is_empty() {
            return Err(err_at(l, t.len(), format!("VARIABLE {name} needs a formula")));
        }
        Ok(VarDef {
            name,
            range,
            formula: Formula::parse(&f)?,
        })
    }
}

/// A line inside `DEFINE … END`: its first word and the text after it.
struct BlockLine<'a> {
    l: &'a LLine,
    word: &'a str,
    rest: &'a LLine,
}

impl BlockLine<'_> {
    /// The formula after the word, which must be there.
    fn formula(&self, what: &str) -> R<Formula> {
        if self.rest.text.is_empty() {
            return Err(err_at(self.l, self.l.text.len(), format!("{what} needs a formula")));
        }
        Formula::parse(self.rest)
    }

    /// The error for a word the object type does not know.
    fn not_here(&self) -> R {
        Err(err_at(
            self.l,
            0,
            format!(
                "`{}` is not possible here; expected one of the commands of this DEFINE or END",
                self.word
            ),
        ))
    }
}

/// The one character of PRECHAR and SIGN (quoted or not).
fn one_char(rest: &LLine, what: &str) -> R<char> {
    let t = unquote(&rest.text);
    let mut c = t.chars();
    match (c.next(), c.next()) {
        (Some(ch), None) => Ok(ch),
        _ => Err(err_at(rest, 0, format!("{what} needs one character"))),
    }
}
