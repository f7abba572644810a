//! The small readers the plugin's XML files share: the XML document with
//! its node cap, lines, required attributes, comma lists, locations, turns,
//! unit words, power abbreviations and safe file names.

use super::*;
use dip_core::Phase;

pub(super) fn xml<'a>(text: &'a str, file: &str) -> Result<roxmltree::Document<'a>, VariantError> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_NODES,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opts).map_err(|e| {
        let p = e.pos();
        err(file, p.row as usize, format!("not well-formed XML: {e}"))
    })
}

pub(super) fn line_of(doc: &roxmltree::Document, n: roxmltree::Node) -> usize {
    doc.text_pos_at(n.range().start).row as usize
}

pub(super) fn attr_req<'a>(
    doc: &roxmltree::Document,
    n: roxmltree::Node<'a, 'a>,
    name: &str,
    file: &str,
) -> Result<&'a str, VariantError> {
    n.attribute(name).ok_or_else(|| {
        err(
            file,
            line_of(doc, n),
            format!("{} without the attribute `{name}`", n.tag_name().name()),
        )
    })
}

/// jDip's comma-separated names (`aliases`, `altnames`): commas outside
/// double quotes separate, spaces belong to the names (`Sail Ho` is one).
pub(super) fn split_csv(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars().chain(std::iter::once(',')) {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                let t = cur.trim();
                if !t.is_empty() {
                    out.push(t.to_string());
                }
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    out
}

pub(super) fn split_list(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
}

/// A jDip location (`stp-nc`, `stp/nc`, `bul-ec`) as (province, coast).
pub(super) fn location(s: &str) -> (String, Option<String>) {
    let s = s.trim().to_ascii_lowercase();
    for sep in ['-', '/'] {
        if let Some((p, c)) = s.rsplit_once(sep) {
            let c = c.trim_end_matches('.').replace('.', "");
            if matches!(c.as_str(), "nc" | "sc" | "ec" | "wc" | "mv" | "xc") {
                let c = if c == "mv" || c == "xc" { None } else { Some(c) };
                return (p.to_string(), c);
            }
        }
    }
    (s, None)
}

/// `Spring, 1901, Movement` (any order of the three words; `1901` alone is
/// Spring Movement). jDip's own forms are turned into dip's long phase
/// name, which [`Phase`]'s one reader reads: single letters (`S`, `F`, `W`,
/// `M`, `R`, `A`) become words and `500BC` becomes `-500`.
pub(super) fn parse_turn(s: &str) -> Result<Phase, String> {
    let mut words = Vec::new();
    let mut season = false;
    for w in s.split([',', ' ']).filter(|w| !w.is_empty()) {
        let l = w.to_ascii_lowercase();
        let word = match l.as_str() {
            "s" => "spring".to_string(),
            "f" => "fall".to_string(),
            "w" => "winter".to_string(),
            "m" => "movement".to_string(),
            "r" => "retreat".to_string(),
            "a" => "adjustment".to_string(),
            _ => match l.strip_suffix("bc") {
                Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => format!("-{n}"),
                _ => l,
            },
        };
        season |= matches!(word.as_str(), "spring" | "fall" | "autumn" | "winter");
        words.push(word);
    }
    if !season {
        words.push("spring".into());
    }
    Phase::parse_long(&words.join(" "))
}

/// Unit type index by jDip's word (`army`, `fleet`, `wing`, `A`, `F`, `W`).
pub(super) fn unit_index(word: &str, wings: bool) -> Option<usize> {
    match word.trim().to_ascii_lowercase().as_str() {
        "army" | "a" => Some(0),
        "fleet" | "f" => Some(1),
        "wing" | "w" if wings => Some(2),
        _ => None,
    }
}

/// Abbreviations for powers: the first three letters, unless taken.
pub(super) fn power_abbrs(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let base: String = n
            .chars()
            .filter(|c| c.is_alphanumeric())
            .take(3)
            .collect::<String>()
            .to_uppercase();
        let mut a = if base.is_empty() { "P".to_string() } else { base.clone() };
        let mut i = 1;
        while out.iter().any(|o| o.eq_ignore_ascii_case(&a)) {
            a = format!("{base}{i}");
            i += 1;
        }
        out.push(a);
    }
    out
}

/// A variant name usable as dip's short name: letters, digits, `_`, `-`, `.`.
pub fn safe_name(s: &str) -> String {
    let out: String = s
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() {
        "jdip".into()
    } else {
        out
    }
}

pub(super) fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in s.chars() {
        match c {
            '<' => inside = true,
            '>' if inside => {
                inside = false;
                out.push(' ');
            }
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}
