//! A cursor over one order line: words, punctuation and names from the map.

use dip_core::{Map, ProvinceId};

pub(crate) struct Cursor<'a> {
    /// The line, lower-cased (ASCII), same byte offsets as the original.
    lower: String,
    pub(crate) src: &'a str,
    pub(crate) pos: usize,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '\'' || c == '.'
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Cursor {
            lower: src.to_ascii_lowercase(),
            src,
            pos: 0,
        }
    }
    fn rest(&self) -> &str {
        &self.lower[self.pos..]
    }
    pub(crate) fn skip_space(&mut self) {
        let r = self.rest();
        let n = r.len() - r.trim_start_matches([' ', '\t', ',', ';']).len();
        self.pos += n;
    }
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_space();
        self.rest().is_empty()
    }
    /// The next word (letters, digits, `'`, `.`), without consuming it.
    pub(crate) fn peek_word(&mut self) -> Option<&str> {
        self.skip_space();
        let r = &self.lower[self.pos..];
        let n: usize = r.chars().take_while(|&c| is_word(c)).map(char::len_utf8).sum();
        (n > 0).then(|| r[..n].trim_end_matches('.'))
    }
    /// Consumes the next word if it is one of `words`.
    pub(crate) fn eat_word(&mut self, words: &[&str]) -> bool {
        match self.peek_word() {
            Some(w) if words.contains(&w) => {
                let len = w.len();
                self.pos += len;
                if self.rest().starts_with('.') {
                    self.pos += 1;
                }
                true
            }
            _ => false,
        }
    }
    /// Consumes a symbol such as `-`, `->`, `(`.
    pub(crate) fn eat_symbol(&mut self, sym: &str) -> bool {
        self.skip_space();
        if self.rest().starts_with(sym) {
            self.pos += sym.len();
            true
        } else {
            false
        }
    }
    pub(crate) fn peek_symbol(&mut self, sym: &str) -> bool {
        self.skip_space();
        self.rest().starts_with(sym)
    }
    /// The longest province name, abbreviation or alias at the cursor.
    pub(crate) fn eat_province(&mut self, map: &Map) -> Option<ProvinceId> {
        self.skip_space();
        let rest = self.rest();
        let mut best: Option<(usize, ProvinceId)> = None;
        for id in map.province_ids() {
            let p = map.province(id);
            let names = std::iter::once(&p.abbr)
                .chain(std::iter::once(&p.name))
                .chain(p.aliases.iter());
            for name in names {
                if let Some(len) = match_name(rest, name) {
                    if best.is_none_or(|(l, _)| len > l) {
                        best = Some((len, id));
                    }
                }
            }
        }
        let (len, id) = best?;
        self.pos += len;
        Some(id)
    }
    /// Text from `start` to the cursor, as written.
    pub(crate) fn column(&self) -> usize {
        self.src[..self.pos].chars().count() + 1
    }
    pub(crate) fn remaining(&self) -> &str {
        self.src[self.pos..].trim()
    }
}

/// If `rest` starts with `name` (case-insensitive, any run of spaces or
/// hyphens matching any other), ending at a word boundary: bytes consumed.
fn match_name(rest: &str, name: &str) -> Option<usize> {
    let rb = rest.as_bytes();
    let mut i = 0;
    let mut parts = name.split([' ', '-']).filter(|s| !s.is_empty()).peekable();
    while let Some(part) = parts.next() {
        let pl = part.to_ascii_lowercase();
        if !rest[i..].starts_with(pl.as_str()) {
            return None;
        }
        i += pl.len();
        if parts.peek().is_some() {
            let start = i;
            while i < rb.len() && (rb[i] == b' ' || rb[i] == b'-') {
                i += 1;
            }
            if i == start {
                return None;
            }
        }
    }
    let boundary = rest[i..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    boundary.then_some(i)
}
