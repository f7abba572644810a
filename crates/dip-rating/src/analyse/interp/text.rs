//! Helpers on the text of lines: job parameters, words, quotes, tabs.

/// Replaces `$1` … `$20` and `$N` (not followed by a name character) by
/// the job's parameters; missing parameters become `NONE`.
pub(super) fn substitute(t: &str, args: &[String]) -> String {
    if !t.contains('$') {
        return t.to_string();
    }
    let b = t.as_bytes();
    let mut out = String::with_capacity(t.len());
    let mut i = 0;
    let name_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.';
    while i < b.len() {
        if b[i] == b'$' && (i == 0 || !name_char(b[i - 1])) {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 && (j >= b.len() || !name_char(b[j])) {
                let k: usize = t[i + 1..j].parse().unwrap_or(0);
                if (1..=20).contains(&k) {
                    out.push_str(args.get(k - 1).map(String::as_str).unwrap_or("NONE"));
                    i = j;
                    continue;
                }
            }
            if j == i + 1
                && (b.get(i + 1) == Some(&b'N') || b.get(i + 1) == Some(&b'n'))
                && (i + 2 >= b.len() || !name_char(b[i + 2]))
            {
                out.push_str(&args.len().to_string());
                i += 2;
                continue;
            }
        }
        let c = t[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// A text line (Analyse copies it to the output): its first word is not
/// all capitals, so not a command misspelt (`Dies ist eine Textzeile`,
/// `Rangliste 2024:`, `---`).
pub(super) fn is_text_line(t: &str) -> bool {
    let first = t.split(' ').next().unwrap_or("");
    let capitals = first.chars().any(|c| c.is_alphabetic()) && !first.chars().any(|c| c.is_lowercase());
    !first.is_empty() && !capitals
}

pub(super) fn first_word(t: &str) -> (String, usize) {
    let end = t.find(' ').unwrap_or(t.len());
    (t[..end].to_ascii_uppercase(), end)
}

pub(super) fn words(t: &str) -> Vec<(usize, &str)> {
    t.split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| (w.as_ptr() as usize - t.as_ptr() as usize, w))
        .collect()
}

pub(super) fn unquote(s: &str) -> String {
    let s = s.trim();
    if s.len() >= 2 && ((s.starts_with('\'') && s.ends_with('\'')) || (s.starts_with('"') && s.ends_with('"'))) {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

/// Index of the first `ch` at nesting depth 0 outside quotes, from `from`.
pub(super) fn find_top(t: &str, from: usize, ch: u8) -> usize {
    let b = t.as_bytes();
    let mut depth = 0i32;
    let mut q: Option<u8> = None;
    let mut i = from;
    while i < b.len() {
        let c = b[i];
        if let Some(qq) = q {
            if c == qq {
                q = None;
            }
        } else if c == b'\'' || c == b'"' {
            q = Some(c);
        } else if c == ch && depth == 0 {
            return i;
        } else if c == b'(' || c == b'[' {
            depth += 1;
        } else if c == b')' || c == b']' {
            depth -= 1;
        }
        i += 1;
    }
    b.len()
}

pub(super) fn split_args(t: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut cur = String::new();
    let mut q: Option<char> = None;
    for c in t.chars() {
        match (q, c) {
            (Some(x), c) if c == x => q = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => q = Some(c),
            (None, ' ') => {
                if !cur.is_empty() {
                    v.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        v.push(cur);
    }
    v
}

/// `OPT$*` naming: upper-case letters doubled.
pub(super) fn opt_symbol(c: char) -> String {
    if c.is_ascii_uppercase() {
        format!("{c}{c}")
    } else {
        c.to_ascii_uppercase().to_string()
    }
}

pub(super) fn relative(base: &str, name: &str) -> String {
    if name.starts_with('/') {
        return name.to_string();
    }
    match base.rfind('/') {
        Some(k) => format!("{}/{name}", &base[..k]),
        None => name.to_string(),
    }
}

/// Replaces runs of two or more spaces that reach a tab stop by tabs.
pub(super) fn tabify(text: &str, tab: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (li, line) in text.split('\n').enumerate() {
        if li > 0 {
            out.push('\n');
        }
        let mut col = 0;
        let mut spaces = 0;
        for c in line.chars() {
            if c == ' ' {
                spaces += 1;
                col += 1;
                if col % tab == 0 {
                    if spaces >= 2 {
                        out.push('\t');
                    } else {
                        out.push_str(&" ".repeat(spaces));
                    }
                    spaces = 0;
                }
                continue;
            }
            out.push_str(&" ".repeat(spaces));
            spaces = 0;
            out.push(c);
            col += 1;
        }
        out.push_str(&" ".repeat(spaces));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs() {
        assert_eq!(tabify("ab      c", 4), "ab\t\tc");
        assert_eq!(tabify("a b", 4), "a b");
    }
}
