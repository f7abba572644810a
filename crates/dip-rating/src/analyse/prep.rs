//! The preprocessor's line handling (manual section 1): comments become a
//! space, control characters become spaces, runs of spaces outside strings
//! shrink to one, lines are trimmed, and a tie (`\`) at the end of a line
//! continues it on the next. Every byte of the result remembers the line
//! and column it came from, so errors point into the source.

use std::rc::Rc;

/// One physical line of a source.
#[derive(Debug, Clone)]
pub struct SrcLine {
    pub file: Rc<str>,
    pub line: u32,
    pub text: String,
}

/// Comment and tie characters (`#SETCOMMENT`).
#[derive(Debug, Clone)]
pub struct CommentChars {
    pub open: String,
    pub close: String,
    pub eol: String,
    pub tie: String,
}

impl Default for CommentChars {
    fn default() -> Self {
        CommentChars {
            open: "{".into(),
            close: "}".into(),
            eol: "!".into(),
            tie: "\\".into(),
        }
    }
}

/// A logical line: text plus the (line, column) of each byte.
#[derive(Debug, Clone)]
pub struct LLine {
    pub file: Rc<str>,
    pub text: String,
    pub at: Vec<(u32, u32)>,
}

impl LLine {
    /// (line, column) of byte offset `k` (the end of the line past the text).
    pub fn pos(&self, k: usize) -> (u32, u32) {
        if let Some(&p) = self.at.get(k) {
            return p;
        }
        match self.at.last() {
            Some(&(l, c)) => (l, c + 1),
            None => (0, 0),
        }
    }
    pub fn first_line(&self) -> u32 {
        self.at.first().map(|p| p.0).unwrap_or(0)
    }
    /// The part from byte `k` on, keeping positions. An empty part keeps
    /// the place past the line's end, so that an error about what is
    /// missing there (`SIGN` without its character) names line and column.
    pub fn tail(&self, k: usize) -> LLine {
        let k = k.min(self.text.len());
        let skip = self.text[k..].len() - self.text[k..].trim_start().len();
        let k = k + skip;
        let at = match self.at.get(k..) {
            Some(at) if k < self.text.len() => at.to_vec(),
            _ => vec![self.pos(k)],
        };
        LLine {
            file: self.file.clone(),
            text: self.text[k..].to_string(),
            at,
        }
    }
}

/// Strips comments from one physical line; returns characters with their
/// columns and whether the line ends with the tie.
pub fn strip(line: &SrcLine, cc: &CommentChars) -> (Vec<(char, u32)>, bool) {
    let chars: Vec<(usize, char)> = line.text.char_indices().collect();
    let mut out: Vec<(char, u32)> = Vec::with_capacity(chars.len());
    let mut quote: Option<char> = None;
    let mut i = 0;
    let starts = |i: usize, pat: &str| !pat.is_empty() && line.text[chars[i].0..].starts_with(pat);
    while i < chars.len() {
        let (_, c) = chars[i];
        let col = i as u32 + 1;
        if let Some(q) = quote {
            out.push((c, col));
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
            out.push((c, col));
            i += 1;
            continue;
        }
        if starts(i, &cc.eol) {
            out.push((' ', col));
            break;
        }
        if starts(i, &cc.open) {
            out.push((' ', col));
            let from = chars[i].0 + cc.open.len();
            match line.text[from..]
                .find(cc.close.as_str())
                .filter(|_| !cc.close.is_empty())
            {
                Some(k) => {
                    let end = from + k + cc.close.len();
                    while i < chars.len() && chars[i].0 < end {
                        i += 1;
                    }
                    continue;
                }
                None => break,
            }
        }
        out.push((if (c as u32) < 32 { ' ' } else { c }, col));
        i += 1;
    }
    // the tie: last non-space characters
    while out.last().is_some_and(|c| c.0 == ' ') {
        out.pop();
    }
    let mut tied = false;
    if !cc.tie.is_empty() {
        let tail: String = out
            .iter()
            .rev()
            .take(cc.tie.chars().count())
            .map(|c| c.0)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if tail == cc.tie && quote.is_none() {
            for _ in 0..cc.tie.chars().count() {
                out.pop();
            }
            tied = true;
        }
    }
    (out, tied)
}

/// Joins stripped pieces into a logical line: spaces collapsed outside
/// strings, trimmed.
pub fn join(file: Rc<str>, pieces: &[(u32, Vec<(char, u32)>)]) -> LLine {
    let mut text = String::new();
    let mut at = Vec::new();
    let mut quote: Option<char> = None;
    let mut last_space = true;
    for (k, (line, cs)) in pieces.iter().enumerate() {
        if k > 0 && !last_space {
            text.push(' ');
            at.push((*line, 1));
            last_space = true;
        }
        for &(c, col) in cs {
            if quote.is_none() && c == ' ' {
                if last_space {
                    continue;
                }
                last_space = true;
            } else {
                last_space = false;
            }
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                }
            } else if c == '\'' || c == '"' {
                quote = Some(c);
            }
            let mut buf = [0u8; 4];
            for _ in 0..c.encode_utf8(&mut buf).len() {
                at.push((*line, col));
            }
            text.push(c);
        }
    }
    while text.ends_with(' ') {
        text.pop();
        at.pop();
    }
    LLine { file, text, at }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> LLine {
        let l = SrcLine {
            file: "f".into(),
            line: 3,
            text: s.into(),
        };
        let (cs, _) = strip(&l, &CommentChars::default());
        join("f".into(), &[(3, cs)])
    }

    #[test]
    fn comments_and_spaces() {
        let l = one("  SET  a = 1 { c } +\t2 ! rest");
        assert_eq!(l.text, "SET a = 1 + 2");
        assert_eq!(l.pos(0), (3, 3));
        assert_eq!(l.pos(4), (3, 8));
        let l = one("ECHO '  a ! b {x}'  ! c");
        assert_eq!(l.text, "ECHO '  a ! b {x}'");
    }

    #[test]
    fn tie_continues() {
        let a = SrcLine {
            file: "f".into(),
            line: 1,
            text: "SET a = 1 + \\ ! c".into(),
        };
        let b = SrcLine {
            file: "f".into(),
            line: 2,
            text: "   2".into(),
        };
        let (ca, ta) = strip(&a, &CommentChars::default());
        let (cb, tb) = strip(&b, &CommentChars::default());
        assert!(ta && !tb);
        let l = join("f".into(), &[(1, ca), (2, cb)]);
        assert_eq!(l.text, "SET a = 1 + 2");
        assert_eq!(l.pos(12), (2, 4));
    }
}
