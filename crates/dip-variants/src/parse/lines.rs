//! Pass 1: the words of every line, grouped by keyword, so that the
//! sections can be read in a fixed order whatever the order of the lines.

use super::*;

/// Every statement of the file by keyword.
pub(super) struct Lines<'a>(FastMap<&'a str, Vec<Stmt<'a>>>);

impl<'a> Lines<'a> {
    /// Splits `text` into statements; an unknown keyword is an error (the
    /// first line's is worded for a file that is no variant at all).
    pub(super) fn read(p: &Parser, text: &'a str) -> Result<Lines<'a>, VariantError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut by_kw: FastMap<&str, Vec<Stmt>> = FastMap::default();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let ws = words(line).map_err(|m| p.err(line_no, m))?;
            let Some(&kw) = ws.first() else { continue };
            if !KEYWORDS.contains(&kw) {
                return Err(p.err(line_no, unknown_keyword(kw, by_kw.is_empty())));
            }
            by_kw.entry(kw).or_default().push(Stmt {
                line: line_no,
                words: ws,
            });
        }
        Ok(Lines(by_kw))
    }

    /// The statements of `kw`, in file order.
    pub(super) fn all(&self, kw: &str) -> &[Stmt<'a>] {
        self.0.get(kw).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// A header line that may appear at most once.
    pub(super) fn once(&self, p: &Parser, kw: &str) -> Result<Option<&Stmt<'a>>, VariantError> {
        match self.all(kw) {
            [] => Ok(None),
            [s] => Ok(Some(s)),
            [first, second, ..] => Err(p.err(
                second.line,
                format!("`{kw}` given twice (first on line {})", first.line),
            )),
        }
    }
}

fn unknown_keyword(kw: &str, first: bool) -> String {
    let lower = kw.to_lowercase();
    if KEYWORDS.contains(&lower.as_str()) {
        format!("keywords are lower case: write `{lower}`, not `{kw}`")
    } else if first {
        // Nothing of a variant so far: most likely another kind of file,
        // which is not quoted beyond a short excerpt.
        format!(
            "{NOT_A_VARIANT}: it starts with `{}`, not a keyword such as `variant`, `power` or `province` (docs/variant-format.md)",
            crate::files::excerpt(kw)
        )
    } else {
        format!(
            "unknown keyword `{}` (expected {})",
            crate::files::excerpt(kw),
            list(KEYWORDS.iter().map(|k| k.to_string()))
        )
    }
}
