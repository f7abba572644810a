//! Numbers and text written into SVG: short numbers, escaped and clipped
//! labels, powers' names.

/// A number for SVG: at most two decimals, no trailing zeros.
pub fn fmt(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        let s = format!("{r:.2}");
        s.trim_end_matches('0').to_string()
    }
}

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The most characters of a name drawn on a map: longer names (a file may
/// hold a name of 100,000 characters) are cut with `…`, so that laying out
/// the text stays quick.
pub(super) const MAX_LABEL: usize = 40;

/// `text` cut to `max` characters, with `…` when cut.
pub(super) fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

pub(super) fn title_case(abbr: &str) -> String {
    let mut c = abbr.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
