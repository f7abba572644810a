//! Splitting a line of a variant file into words.
//!
//! A word is a run of characters without white space; a double-quoted part
//! of a word may contain white space (`"St Petersburg"`, `aka=pet,"st. petersburg"`).
//! A `#` at the start of a word begins a comment that runs to the end of the
//! line, so `colour=#2e4ea3` is a word but `# note` is a comment.

use std::borrow::Cow;

/// The words of one line, with their quotes still in them. Words are
/// separated by spaces and tabs (ASCII white space).
pub(crate) fn words(line: &str) -> Result<Vec<&str>, String> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' {
            break;
        }
        // The bytes looked at are ASCII, so word boundaries are char boundaries.
        let start = i;
        let mut quoted = false;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => quoted = !quoted,
                c if c.is_ascii_whitespace() && !quoted => break,
                _ => {}
            }
            i += 1;
        }
        if quoted {
            return Err("missing closing quote `\"`".into());
        }
        out.push(line.get(start..i).unwrap_or(""));
    }
    Ok(out)
}

/// The text of a word without its quotes, trimmed.
pub(crate) fn unquote(word: &str) -> Cow<'_, str> {
    if word.contains('"') {
        Cow::Owned(
            word.chars()
                .filter(|&c| c != '"')
                .collect::<String>()
                .trim()
                .to_string(),
        )
    } else {
        Cow::Borrowed(word.trim())
    }
}

/// Splits at `sep` outside quotes.
pub(crate) fn split_outside_quotes(word: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in word.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&word[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&word[start..]);
    out
}

/// `key=value` (the first `=` outside quotes), else `None`.
pub(crate) fn key_value(word: &str) -> Option<(&str, &str)> {
    let mut quoted = false;
    for (i, c) in word.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == '=' && !quoted {
            return Some((&word[..i], &word[i + 1..]));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_quotes_and_comments() {
        assert_eq!(
            words(r#"province stp "St Petersburg" coast aka=pet,"st. petersburg" # c"#).unwrap(),
            vec![
                "province",
                "stp",
                "\"St Petersburg\"",
                "coast",
                "aka=pet,\"st. petersburg\""
            ]
        );
        assert_eq!(
            words("power ENG colour=#2e4ea3 #x").unwrap(),
            vec!["power", "ENG", "colour=#2e4ea3"]
        );
        assert_eq!(words("  # only a comment").unwrap(), Vec::<&str>::new());
        assert!(words("title \"oops").is_err());
        assert_eq!(split_outside_quotes("pet,\"a,b\",c", ','), vec!["pet", "\"a,b\"", "c"]);
        assert_eq!(key_value("aka=\"x=y\""), Some(("aka", "\"x=y\"")));
        assert_eq!(key_value("\"x=y\""), None);
        assert_eq!(unquote("\"St Petersburg\""), "St Petersburg");
    }
}
